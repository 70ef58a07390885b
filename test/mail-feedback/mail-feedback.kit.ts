// Mail feedback in the route-table suites (test/support/area-kit.ts): the races of the suppression
// list's write routes, and an address of the team's suppression list in the route world.
//
// Races on the suppression list: adding one address N times at once (one row; exactly one 201,
// the rest answer 200 with that row), taking it off N times at once (one 200, the rest 404), and
// adds racing deletes, where every answer must fit one order of the same requests one by one.
import { randomBytes } from 'node:crypto';
import { expectOneDeletion, expectSame } from '../concurrency/race-checks.ts';
import { N, succeeded, type Exchange, type RaceKit, type RaceTable } from '../concurrency/race-kit.ts';
import { ok, type AreaTestKit } from '../support/area-kit.ts';

const PATH = '/v1/message-suppressions';
const one = (address: string) => `${PATH}/${encodeURIComponent(address)}`;
const freshAddress = () => `race-${randomBytes(4).toString('hex')}@receiver.example`;

/** the rows the list holds for the address (the search is a substring, so compare whole) */
async function listed(kit: RaceKit, address: string): Promise<any[]> {
  const rows: { address: string }[] = await kit.admin('GET', `${PATH}?search=${encodeURIComponent(address)}&limit=100`);
  return rows.filter((r) => r.address === address);
}

const count = (xs: Exchange[], status: number) => xs.filter((x) => x.response.status === status).length;

const suppressionRaces: RaceTable = {
  [`POST ${PATH}`]: [
    {
      what: 'N adds of one address, in different letter cases',
      async run(kit) {
        const address = freshAddress();
        const xs = await kit.race(Array.from({ length: N }, (_, i) => ({ method: 'POST', path: PATH, body: { address: i % 2 ? address.toUpperCase() : address } })));
        kit.expectAnswers(xs, ['201', '200']);
        expectSame(kit, 'answers 201', count(xs, 201), 1, xs);
        for (const x of succeeded(xs)) {
          const data = x.response.body?.data;
          if (data?.address !== address || data?.reason !== 'MANUAL' || data?.created !== (x.response.status === 201)) kit.problem(`an add answered ${JSON.stringify(data)}`, [x]);
        }
        const createdAts = new Set(succeeded(xs).map((x) => x.response.body.data.createdAt));
        expectSame(kit, 'distinct createdAt among the answers (all the same row)', createdAts.size, 1, xs);
        expectSame(kit, 'rows of the address', (await listed(kit, address)).length, 1, xs);
      },
    },
    {
      what: 'adds racing deletes of one listed address',
      async run(kit) {
        const address = freshAddress();
        await kit.admin('POST', PATH, { address });
        const half = Math.floor(N / 2);
        const xs = await kit.race([
          ...Array.from({ length: half }, () => ({ method: 'POST', path: PATH, body: { address } })),
          ...Array.from({ length: N - half }, () => ({ method: 'DELETE', path: one(address) })),
        ]);
        kit.expectAnswers(xs, ['201', '200', '404 NOT_FOUND']);
        const adds = xs.slice(0, half);
        const deletes = xs.slice(half);
        if (adds.some((x) => x.response.status === 404)) kit.problem('an add answered 404', adds);
        if (deletes.some((x) => x.response.status === 201)) kit.problem('a delete answered 201', deletes);
        // listed at the start: each 201 needs a delete before it, each 200 delete a row to take
        const created = count(adds, 201);
        const deleted = count(deletes, 200);
        const rows = (await listed(kit, address)).length;
        expectSame(kit, 'rows left (1 - deletes answered 200 + adds answered 201)', rows, 1 - deleted + created, xs);
        if (rows > 1) kit.problem(`${rows} rows of one address`, xs);
      },
    },
  ],
  [`DELETE ${PATH}/{address}`]: [
    {
      what: 'N deletes of one listed address',
      async run(kit) {
        const address = freshAddress();
        await kit.admin('POST', PATH, { address });
        const xs = await kit.race({ method: 'DELETE', path: one(address) });
        kit.expectAnswers(xs, ['200', '404 NOT_FOUND']);
        expectSame(kit, 'answers 200', count(xs, 200), 1, xs);
        await expectOneDeletion(kit, xs, { method: 'DELETE', path: one(address) });
        expectSame(kit, 'rows of the address', (await listed(kit, address)).length, 0, xs);
      },
    },
  ],
};

export const kit: AreaTestKit = {
  races: suppressionRaces,
  // an address not built from the label (which may hold spaces)
  async world({ call }) {
    const suppressed = await ok(await call('POST', '/v1/message-suppressions', { address: `suppressed-${randomBytes(4).toString('hex')}@example.org` }), 'suppress an address');
    return { ids: { address: suppressed.address } };
  },
};
