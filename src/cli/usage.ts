// The usage text of `svc` (printed by `svc help` and on a mistake; loads nothing else): the server
// commands here, then the commands areas add (area-commands.ts).
export const SERVER_USAGE = `usage: svc <command>

  start                    run the server (and, by default, the job workers)
  worker                   run only the job workers
  migrate [--status]       apply pending database migrations (or show their status)
  bootstrap --team <name> --email <email> [--password <pw>] [--system-admin]
                           create a team, a team-admin user and a full-access API key;
                           prints one JSON object: baseUrl, caCertFile (the certificate
                           to trust, for curl --cacert), teamSimplyId, userSimplyId, email,
                           password, userToken, apiKey (shown only here), apiKeySimplyId
  counts [--fix] [--team <teamSimplyId>]
                           recount every collection's records per state and compare with the
                           record counters; prints one JSON line per mismatch; --fix writes
                           correcting counter rows. Exit 0: consistent (or fixed),
                           1: mismatches, 2: usage or error
`;
