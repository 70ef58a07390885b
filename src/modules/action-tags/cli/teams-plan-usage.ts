// The lines `svc teams` adds to `svc help` (and prints on a usage mistake).
export const TEAMS_PLAN_USAGE = `  teams plan --team <teamSimplyId> [--preset standalone-<band>|paid-<band>] [--contract STANDALONE|POWERED]
         [--billing FREE|PAID] [--band <n>] [--capacity <n>] [--retention-days <n>] [--domains <n>]
                           set a team's action-tag plan (docs/api/action-tags.md "Plans and gates");
                           prints one JSON line: the plan, its features and how many tags the change
                           archived. Works on the database (DATABASE_URL, else the embedded one in
                           DATA_DIR). Exit 0 done, 1 refused (invalid plan, unknown team), 2 usage.
`;
