// `svc oauth-clients create | list | revoke`: the operator's side of the authorization server's
// client registry (oauth-clients.service.ts). It works on the database like `svc migrate` and
// `svc bootstrap` (DATABASE_URL, else the embedded cluster in DATA_DIR), and seals secrets with
// the secrets key in DATA_DIR, the one the server opens them with.
import { parseArgs } from 'node:util';
import { UsageError } from '../../../app/cli/cli-sign-in.ts';
import { ValidationError } from '../../../app/errors.ts';
import { resolveDatabase } from '../../../db/database.ts';
import { createPool, createPrisma } from '../../../db/prisma.ts';
import { loadConfig } from '../../../main/config.ts';
import { oauthClientsFor } from '../oauth-clients.service.ts';
import { OAUTH_CLIENTS_USAGE } from './oauth-clients-usage.ts';

type OAuthClients = ReturnType<typeof oauthClientsFor>;
type Work = (clients: OAuthClients) => Promise<number>;

const printLine = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** The work the command line asks for; throws UsageError (or parseArgs' own) before anything is opened. */
function workOf(argv: string[]): Work {
  const [subcommand, ...args] = argv;
  switch (subcommand) {
    case 'create': {
      const { values } = parseArgs({
        args,
        options: {
          name: { type: 'string' },
          'redirect-uri': { type: 'string', multiple: true },
          'first-party': { type: 'boolean' },
          allow: { type: 'string', multiple: true },
          confidential: { type: 'boolean' },
        },
      });
      if (values.name === undefined) throw new UsageError('--name is required');
      if (!values['redirect-uri']?.length) throw new UsageError('--redirect-uri is required (repeat it for more than one)');
      const input = {
        name: values.name,
        redirectUris: values['redirect-uri'],
        firstParty: values['first-party'] === true,
        allowances: values.allow ?? [],
        confidential: values.confidential === true,
      };
      return async (clients) => {
        printLine(await clients.registerClient(input));
        return 0;
      };
    }
    case 'list': {
      parseArgs({ args, options: {} });
      return async (clients) => {
        for (const client of await clients.listClients()) printLine(client);
        return 0;
      };
    }
    case 'revoke': {
      const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
      const [clientId] = positionals;
      if (positionals.length !== 1 || !clientId) throw new UsageError('give the clientId to revoke');
      return async (clients) => {
        if (await clients.revokeClient(clientId)) {
          printLine({ revoked: true });
          return 0;
        }
        process.stderr.write(`svc oauth-clients: no client ${clientId}\n`);
        return 1;
      };
    }
    default:
      throw new UsageError(subcommand === undefined ? 'give create, list or revoke' : `unknown subcommand ${subcommand}`);
  }
}

/** Usage mistakes exit 2 with the usage, refused input 1 with the reason (as export and import do). */
export async function oauthClientsCommand(argv: string[]): Promise<number> {
  let work: Work;
  try {
    work = workOf(argv);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`svc oauth-clients: ${(error as Error).message}\n\nusage:\n${OAUTH_CLIENTS_USAGE}`);
      return 2;
    }
    throw error;
  }
  const config = loadConfig();
  const db = await resolveDatabase(config);
  const pool = createPool(db.url, 2, 'svc-oauth-clients');
  const prisma = createPrisma(pool);
  try {
    return await work(oauthClientsFor({ prisma, config }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    process.stderr.write(`svc oauth-clients: ${error.message}\n`);
    return 1;
  } finally {
    await prisma.$disconnect();
    await pool.end();
    await db.stop();
  }
}
