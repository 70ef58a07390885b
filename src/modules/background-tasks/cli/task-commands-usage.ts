// The lines `svc export` and `svc import` add to `svc help` (and print on a usage mistake).
export const TASK_COMMANDS_USAGE = `  export --collection <id> | --view <id> --fields <id,id,…> [--system-columns <NAME,…>]
         [--filter '<json>'] [--records <id,id,…>] [--out <file.csv> | --out -]
                           export records to CSV as a DATA_EXPORT background task; the file is
                           written to --out (default: the name the platform gives, here), "-" for stdout
  import --collection <id> --file <data.csv> --mapping 'Header=fieldId,…'
         [--mode create|update|upsert --match <fieldId>] [--dry-run]
                           upload a CSV and import it as a BULK_DATA_IMPORT background task
                           (--dry-run: validate every row, write nothing)
    both: --base-url <https://…> (SVC_BASE_URL), --team <teamSimplyId> (SVC_TEAM_ID),
          --token <user access token> (SVC_TOKEN) or --email <email> (SVC_EMAIL) with the
          password in SVC_PASSWORD or asked on a terminal, [--mfa-code <code>],
          [--ca-cert <file>] (the server's certificate when self-signed; bootstrap prints caCertFile)
          API keys cannot start background tasks. Progress goes to stderr (a bar on a terminal,
          plain lines otherwise); stdout gets one JSON line: the task's id, status and result.
          Exit 0 COMPLETED, 3 PARTIAL_SUCCESS (errors printed), 1 FAILED or refused, 2 usage.
`;
