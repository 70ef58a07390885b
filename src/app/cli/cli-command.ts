// What an area adds to the `svc` command: a `src/modules/<area>/<area>.cli.ts` exporting
// `cliCommands`. svc finds those files itself, so the file must stay cheap to load: the usage text
// here, the work behind a dynamic import in `run`.
export interface CliCommand {
  name: string;
  /** its lines of `svc help`, indented like the others */
  usage: string;
  /** the exit code: 0 done, 1 failed or refused, 2 usage (and whatever else the usage names) */
  run(args: string[]): Promise<number>;
}
