import { randomBytes } from 'node:crypto';
import { createDb } from '@platform/db';
import { startHttpStub, waitFor, type HttpStub, type RecordedRequest } from '@platform/testkit';
import { configureProviders, startCluster, type Cluster } from '../harness/cluster';
import { LOAD_PASSWORD, startLoad, type Load } from '../harness/load';
import { call, type ServiceName } from '../harness/platform';
import { checkRequests, exactlyOnce, Report } from '../harness/report';
import { sendgridBaseFor, startOpenAiStandIn, startSendgridStandIn } from '../harness/stand-ins';

export const CLIENT_TIMEOUT_MS = 15_000;
const LOAD_RATE = Number(process.env.CHAOS_LOAD_RATE ?? 12);

/** The issue's numbers, and CI's smaller ones (`--ci` or CHAOS_CI=1) that keep the five scenarios to a few minutes. */
const FULL = { batch: 2_000, emails: 500, dbCutMs: 20_000, brokerCutMs: 30_000, brokerBatch: 300, settleMs: 10_000 };
const CI = { batch: 400, emails: 150, dbCutMs: 8_000, brokerCutMs: 10_000, brokerBatch: 100, settleMs: 5_000 };
export const onCi = () => process.argv.includes('--ci') || process.env.CHAOS_CI === '1';
const size = () => {
  const base = onCi() ? CI : FULL;
  return {
    ...base,
    dbCutMs: Number(process.env.CHAOS_DB_CUT_MS ?? base.dbCutMs),
    brokerCutMs: Number(process.env.CHAOS_BROKER_CUT_MS ?? base.brokerCutMs),
  };
};
/** An e-mail its sender got the answer for this long before being killed may not have been recorded as sent. */
const UNRECORDED_MARGIN_MS = 2_000;

export interface Stage {
  cluster: Cluster;
  sendgrid: Awaited<ReturnType<typeof startSendgridStandIn>>;
  openai: HttpStub;
  /** A webhook receiver that fails each webhook id's first attempt, so every delivery is retried once. */
  receiver: HttpStub;
  report: Report;
}

const emailsTo = (stage: Stage, to: string) => stage.sendgrid.emails.filter((e) => e.to === to);

/** Fresh stand-ins, databases, processes and project for one scenario; all of it is stopped after. */
export async function onStage(title: string, body: (stage: Stage) => Promise<void>): Promise<Report> {
  const report = new Report(title);
  const sendgrid = await startSendgridStandIn({ delayMs: 20 });
  const openai = await startOpenAiStandIn({ delayMs: 20 });
  const seen = new Set<string>();
  const receiver = await startHttpStub((req, res) => {
    const id = String(req.headers['x-webhook-id']);
    res.writeHead(seen.has(id) ? 200 : 500);
    seen.add(id);
    res.end();
  });
  let cluster: Cluster | undefined;
  const started = Date.now();
  try {
    cluster = await startCluster({
      vendorEnv: { SENDGRID_API_BASE: sendgrid.url, OPENAI_BASE_URL: openai.url },
      settings: { requireEmailVerification: true, appUrl: 'https://app.example.com' },
      replicas: { auth: 2, llm: 2, mailer: 2, notifications: 2 },
      // Each mailer replica's e-mails are told apart at the stand-in.
      replicaEnv: (name, serial): Record<string, string> =>
        name === 'mailer' ? { SENDGRID_API_BASE: sendgridBaseFor(sendgrid, `mailer-${serial}`) } : {},
      serviceEnv: {
        // Cheap hashes and no per-address sign-up limit: the load signs up hundreds of users from one address.
        auth: { BCRYPT_COST: '4', AUTH_RATE_LIMIT_PER_IP: '1000000', AUTH_RATE_LIMIT_PER_EMAIL: '1000000' },
        // A killed worker's slice is taken over within seconds, and webhook retries come within seconds.
        llm: {
          LLM_BATCH_HEARTBEAT_MS: '500',
          LLM_BATCH_STALE_MS: '3000',
          LLM_BATCH_SWEEP_INTERVAL_MS: '1000',
          LLM_BATCH_SLOT_LEASE_MS: '3000',
          LLM_WEBHOOK_RETRY_DELAYS_MS: '1000,2000,4000',
        },
      },
    });
    report.figure(
      'cluster start-up',
      `${Date.now() - started} ms (${Object.entries(cluster.startup)
        .map(([phase, ms]) => `${phase} ${ms}`)
        .join(', ')})`,
    );
    await configureProviders(cluster);
    await body({ cluster, sendgrid, openai, receiver, report });
  } catch (error) {
    report.check('scenario ran to the end', false, String((error as Error)?.stack ?? error));
    for (const p of Object.values(cluster?.replicas ?? {}).flat())
      for (const line of p
        .output()
        .split('\n')
        .filter((l) => l.includes('"level":"error"'))
        .slice(-3))
        report.print(`   ${p.name} ${line.slice(0, 600)}`);
  } finally {
    const stopping = Date.now();
    const timings = Object.entries((await cluster?.stop()) ?? {});
    await Promise.all([sendgrid.close(), openai.close(), receiver.close()]);
    const slowest = timings.filter(([name]) => /\d$/.test(name)).sort((a, b) => b[1] - a[1])[0];
    report.figure(
      'clean-up',
      `${Date.now() - stopping} ms (${timings
        .filter(([name]) => !/\d$/.test(name))
        .map(([name, ms]) => `${name} ${ms}`)
        .join(', ')}; slowest process ${slowest?.join(' ') ?? '-'})`,
    );
  }
  report.figure('scenario time, start-up and clean-up included', `${Date.now() - started} ms`);
  return report;
}

async function submitBatch(stage: Stage, size: number): Promise<string> {
  const requests = Array.from({ length: size }, (_, i) => ({
    custom_id: `item-${i}`,
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: `item-${i}` }],
  }));
  const submitted = await call(`${stage.cluster.urls.llm}/batch`, {
    method: 'POST',
    headers: stage.cluster.headers,
    body: { requests, webhook_url: `${stage.receiver.url}/hooks/batch` },
  });
  if (submitted.status !== 201) throw new Error(`batch refused: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  return submitted.body.batchId as string;
}

const batchState = async (stage: Stage, batchId: string) =>
  (await call(`${stage.cluster.urls.llm}/batch/${batchId}`, { headers: stage.cluster.headers })).body;

/** Results exactly once per custom_id, and the webhook delivered (retried with the same X-Webhook-Id). */
async function checkBatch(stage: Stage, batchId: string, size: number): Promise<void> {
  const { report } = stage;
  const hooks = (): RecordedRequest[] =>
    stage.receiver.requests.filter((r) => (r.body as { batchId?: string })?.batchId === batchId);
  const deliveredAt = Date.now();
  await waitFor(() => hooks().length >= 2, { timeoutMs: 180_000, intervalMs: 200 }).catch(() => undefined);
  const deliveries = hooks();
  report.figure('batch webhook attempts', `${deliveries.length} (first refused by the receiver on purpose)`);
  const ids = new Set(deliveries.map((d) => String(d.headers['x-webhook-id'])));
  report.check(
    'batch webhook delivered at least once',
    deliveries.length >= 2,
    `waited ${Date.now() - deliveredAt} ms`,
  );
  report.check('batch webhook retries carry the same X-Webhook-Id', ids.size === 1, [...ids].join(', '));

  const results = await call(`${stage.cluster.urls.llm}/batch/${batchId}/results`, { headers: stage.cluster.headers });
  const got: { custom_id: string; status: string }[] = results.body?.results ?? [];
  const expected = Array.from({ length: size }, (_, i) => `item-${i}`);
  const { missing, duplicated } = exactlyOnce(
    expected,
    got.map((r) => r.custom_id),
  );
  const failed = got.filter((r) => r.status !== 'succeeded');
  report.figure('batch results', `${got.length} of ${size}; ${failed.length} failed`);
  report.check(
    'every batch item succeeded',
    !failed.length,
    failed.length ? `${failed[0].custom_id} ${failed[0].status}` : '',
  );
  report.check(
    'batch results: exactly one per custom_id, none lost',
    !missing.length && !duplicated.length,
    `missing ${missing.length}, duplicated ${duplicated.length}`,
  );
  const vendorCalls = stage.openai.requests
    .map((r) => (r.body as { messages?: { content: string }[] })?.messages?.[0]?.content)
    .filter((c): c is string => typeof c === 'string' && c.startsWith('item-'));
  report.figure(
    'vendor calls for the batch',
    `${vendorCalls.length} for ${size} items (repeats after the fault: ${vendorCalls.length - new Set(vendorCalls).size})`,
  );
}

/**
 * Every acknowledged sign-up's verification e-mail arrives exactly once. `interrupted`: e-mails
 * a killed sender was in the middle of (SendGrid took them, the sender never recorded it); with
 * a vendor that has no idempotency key these may come twice, never more, and nothing else may.
 * Call it once the load has stopped, so no new sign-ups keep arriving.
 */
async function checkEmails(stage: Stage, addresses: string[], interrupted = new Set<string>()): Promise<void> {
  const arrived = () => addresses.every((a) => emailsTo(stage, a).length >= 1);
  await waitFor(arrived, { timeoutMs: 120_000, intervalMs: 200 }).catch(() => undefined);
  // Quiet period: a duplicate, if any, comes from a redelivery right behind the first copy.
  const quietUntil = Date.now() + 30_000;
  let count = -1;
  while (count !== stage.sendgrid.emails.length && Date.now() < quietUntil) {
    count = stage.sendgrid.emails.length;
    await pause(2_000);
  }
  const wanted = new Set(addresses);
  const copies = stage.sendgrid.emails.map((e) => e.to).filter((to) => wanted.has(to));
  const { missing, duplicated } = exactlyOnce(addresses, copies);
  const excused = duplicated.filter((a) => interrupted.has(a) && emailsTo(stage, a).length === 2);
  const wrong = duplicated.filter((a) => !excused.includes(a));
  report(stage).figure(
    'verification e-mails',
    `${addresses.length} sign-ups; ${missing.length} missing, ${duplicated.length} duplicated` +
      (interrupted.size ? ` (${interrupted.size} interrupted by the kill, ${excused.length} of them sent again)` : ''),
  );
  report(stage).check('e-mails: none missing at the mail stand-in', !missing.length, missing.slice(0, 3).join(', '));
  report(stage).check(
    interrupted.size
      ? 'e-mails: exactly once, except a second copy of a send the kill interrupted'
      : 'e-mails: each exactly once at the mail stand-in',
    !wrong.length,
    wrong.slice(0, 3).join(', '),
  );
}
const report = (stage: Stage) => stage.report;

/** Every acknowledged user, notification and content item is in its database afterwards. */
async function checkWrites(stage: Stage, load: Load): Promise<void> {
  const count = async (service: ServiceName, sql: string, values: string[]) => {
    if (!values.length) return 0;
    const db = createDb({ url: stage.cluster.directDatabaseUrl(service), poolMax: 1 });
    try {
      const { rows } = await db.raw(sql, [values]);
      return Number(rows[0].n);
    } finally {
      await db.destroy();
    }
  };
  const users = await count('auth', 'select count(*) n from users where email = any(?)', load.users);
  const notes = await count(
    'notifications',
    'select count(*) n from notifications where id = any(?::uuid[])',
    load.notifications,
  );
  const items = await count('cms', 'select count(*) n from content_items where id = any(?::uuid[])', load.content);
  stage.report.figure(
    'acknowledged writes found',
    `users ${users}/${load.users.length}, notifications ${notes}/${load.notifications.length}, content ${items}/${load.content.length}`,
  );
  stage.report.check(
    'every acknowledged write is there afterwards',
    users === load.users.length && notes === load.notifications.length && items === load.content.length,
  );
  const logins = await Promise.all(
    load.users.slice(-5).map((email) =>
      call(`${stage.cluster.urls.auth}/login`, {
        method: 'POST',
        headers: stage.cluster.headers,
        body: { email, password: LOAD_PASSWORD },
      }),
    ),
  );
  stage.report.check(
    'acknowledged users can log in',
    logins.every((l) => l.status === 200),
    logins.map((l) => l.status).join(','),
  );
}

const until = (check: () => Promise<boolean> | boolean) => waitFor(check, { timeoutMs: 120_000, intervalMs: 100 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two completions a second that each spend 3 s at the vendor: some are always in flight at an LLM replica. */
function slowCompletions(stage: Stage): {
  stop(): Promise<{ start: number; end: number; status: number; error?: string }[]>;
} {
  const calls: { start: number; end: number; status: number; error?: string }[] = [];
  const running: Promise<void>[] = [];
  const timer = setInterval(() => {
    const start = Date.now();
    running.push(
      call(`${stage.cluster.urls.llm}/completions`, {
        method: 'POST',
        headers: stage.cluster.headers,
        body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `slow 3000ms ${start}` }] },
      }).then(
        (res) => void calls.push({ start, end: Date.now(), status: res.status }),
        (error: Error) => void calls.push({ start, end: Date.now(), status: 0, error: String(error.cause ?? error) }),
      ),
    );
  }, 500);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(running);
      return calls;
    },
  };
}

const ALL: ServiceName[] = ['auth', 'billing', 'cms', 'llm', 'mailer', 'notifications'];

export const scenarios: { name: string; run: () => Promise<Report> }[] = [
  {
    name: 'llm-kill',
    run: () => {
      const { batch } = size();
      return onStage(
        `1. kill -9 of an LLM replica in the middle of a ${batch}-item batch with a completion webhook`,
        async (stage) => {
          const load = startLoad(stage.cluster, { rate: LOAD_RATE, clientTimeoutMs: CLIENT_TIMEOUT_MS });
          const batchId = await submitBatch(stage, batch);
          await until(async () => (await batchState(stage, batchId)).completedCount >= batch / 5);
          const doneAtKill = (await batchState(stage, batchId)).completedCount;
          // Watched from the kill on: the replacement's start-up is no part of it.
          const completed = until(async () => (await batchState(stage, batchId)).status === 'completed').then(
            () => Date.now(),
            () => NaN,
          );
          const { killedAt } = await stage.cluster.killReplica('llm', 0);
          stage.report.figure('killed at', `${doneAtKill} of ${batch} items done`);
          stage.report.figure('batch completed after the kill', `${(await completed) - killedAt} ms`);
          await checkBatch(stage, batchId, batch);
          await load.stop();
          checkRequests(stage.report, load.records, { start: killedAt, end: killedAt }, ['llm'], {
            lostInFlightAllowed: true,
          });
        },
      );
    },
  },
  {
    name: 'mailer-kill',
    run: () => {
      const { emails } = size();
      return onStage(
        `2. kill -9 of a mailer replica while ${emails} verification e-mails are in flight`,
        async (stage) => {
          const load = startLoad(stage.cluster, { rate: LOAD_RATE, clientTimeoutMs: CLIENT_TIMEOUT_MS });
          const addresses = Array.from({ length: emails }, () => `mail-${randomBytes(6).toString('hex')}@example.com`);
          const registered: string[] = [];
          for (let i = 0; i < addresses.length; i += 25) {
            const res = await Promise.all(
              addresses.slice(i, i + 25).map((email) =>
                call(`${stage.cluster.urls.auth}/register`, {
                  method: 'POST',
                  headers: stage.cluster.headers,
                  body: { email, password: LOAD_PASSWORD },
                }).then((r) => ({ email, status: r.status })),
              ),
            );
            registered.push(...res.filter((r) => r.status === 201).map((r) => r.email));
          }
          stage.report.check(`${emails} sign-ups acknowledged`, registered.length === emails, `${registered.length}`);
          const sent = () => registered.filter((a) => emailsTo(stage, a).length).length;
          await until(() => sent() >= emails / 5);
          const victim = stage.cluster.replicas.mailer[0];
          const sender = `mailer-${victim.serial}`;
          // Killed while one of its sends is at the vendor: the case that can lose or double an e-mail.
          await waitFor(() => stage.sendgrid.inFlight(sender) > 0, { timeoutMs: 60_000, intervalMs: 1 });
          const [sentAtKill, inFlightAtKill] = [sent(), stage.sendgrid.inFlight(sender)];
          const { killedAt } = await stage.cluster.killReplica('mailer', 0);
          stage.report.figure(
            'killed at',
            `${sentAtKill} of ${emails} e-mails at the stand-in, ${inFlightAtKill} of the victim's sends in flight there`,
          );
          await load.stop();
          const interrupted = stage.sendgrid.emails.filter(
            (e) => e.sender === sender && e.answeredAt >= killedAt - UNRECORDED_MARGIN_MS,
          );
          const midCall = interrupted.filter((e) => e.arrivedAt <= killedAt && e.answeredAt >= killedAt);
          stage.report.figure(
            "the killed replica's sends without a sure record",
            `${midCall.length} at the vendor when killed, ${interrupted.length - midCall.length} answered in its last ${UNRECORDED_MARGIN_MS} ms`,
          );
          await checkEmails(stage, [...registered, ...load.users], new Set(interrupted.map((e) => e.to)));
          checkRequests(stage.report, load.records, { start: killedAt, end: killedAt }, ['mailer'], {
            lostInFlightAllowed: true,
          });
        },
      );
    },
  },
  {
    name: 'postgres-cut',
    run: () => {
      const { dbCutMs, settleMs } = size();
      return onStage(
        `3. Postgres unreachable for ${dbCutMs / 1000} s (its relay cut) during sign-ups, logins and notification writes`,
        async (stage) => {
          const load = startLoad(stage.cluster, { rate: LOAD_RATE, clientTimeoutMs: CLIENT_TIMEOUT_MS });
          await pause(5_000);
          const start = Date.now();
          stage.cluster.database.cut();
          await pause(dbCutMs);
          stage.cluster.database.restore();
          const end = Date.now();
          await pause(settleMs);
          await load.stop();
          checkRequests(stage.report, load.records, { start, end }, ALL);
          await checkWrites(stage, load);
          await checkEmails(stage, load.users);
        },
      );
    },
  },
  {
    name: 'rabbitmq-cut',
    run: () => {
      const { brokerCutMs, brokerBatch, settleMs } = size();
      return onStage(
        `4. RabbitMQ unreachable for ${brokerCutMs / 1000} s (its relay cut) during batches and registrations`,
        async (stage) => {
          const load = startLoad(stage.cluster, { rate: LOAD_RATE, clientTimeoutMs: CLIENT_TIMEOUT_MS });
          await pause(3_000);
          // Submitted just before the cut: its start event and its webhook cross the outage.
          const batchId = await submitBatch(stage, brokerBatch);
          const start = Date.now();
          stage.cluster.broker.cut();
          await pause(brokerCutMs);
          stage.cluster.broker.restore();
          const end = Date.now();
          await pause(settleMs);
          await load.stop();
          checkRequests(stage.report, load.records, { start, end }, ['auth', 'llm', 'mailer', 'notifications']);
          await checkBatch(stage, batchId, brokerBatch);
          await checkWrites(stage, load);
          await checkEmails(stage, load.users);
        },
      );
    },
  },
  {
    name: 'rolling-deploy',
    run: () =>
      onStage(
        '5. rolling deploy: each replica of each service replaced, the old one stopped with SIGTERM under load',
        async (stage) => {
          const load = startLoad(stage.cluster, { rate: LOAD_RATE, clientTimeoutMs: CLIENT_TIMEOUT_MS });
          const slow = slowCompletions(stage);
          await pause(3_000);
          // Each service's Deployment rolls on its own: one replica at a time per service, all services at once.
          const stops = (
            await Promise.all(
              ALL.map(async (name) => {
                const own: { name: ServiceName; signalledAt: number; exitCode: number | string }[] = [];
                for (let i = stage.cluster.replicas[name].length; i > 0; i--)
                  own.push({ name, ...(await stage.cluster.rollReplica(name, 0)) });
                return own;
              }),
            )
          ).flat();
          await pause(3_000);
          await load.stop();
          const slowCalls = await slow.stop();
          stage.report.check(
            'every stopped replica exited cleanly',
            stops.every((s) => s.exitCode === 0),
            stops.map((s) => `${s.name} ${s.exitCode}`).join(', '),
          );
          const llmStops = stops.filter((s) => s.name === 'llm').map((s) => s.signalledAt);
          const caught = slowCalls.filter((c) => llmStops.some((at) => c.start < at && c.end > at));
          stage.report.figure(
            'slow completions (3 s at the vendor)',
            `${slowCalls.length}, ${caught.length} of them in flight when an LLM replica got SIGTERM`,
          );
          stage.report.check(
            'SIGTERM loses no in-flight request: every slow completion answered 200',
            caught.length > 0 && slowCalls.every((c) => c.status === 200),
            slowCalls
              .filter((c) => c.status !== 200)
              .slice(0, 3)
              .map((c) => `${c.status || c.error}`)
              .join(', '),
          );
          checkRequests(stage.report, load.records, undefined, []);
          await checkWrites(stage, load);
          await checkEmails(stage, load.users);
        },
      ),
  },
];
