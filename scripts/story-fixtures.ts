// `npm run stories:fixtures`: records the API's answers over the demo seller (sellers/demo) into
// src/stories/fixtures/demo-answers.json, the wire data the stories feed the storefront's real stores with
// (src/stories/harness). The API runs in this process on an in-memory PGlite with its clock pinned, so the
// recording is the same on every run; re-run it when the contract or the demo seller changes
// (tests/unit/story-fixtures.test.ts checks the recording against the contract's schemas).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from '../server/app';
import { readConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { loadSellerFolder } from '../server/catalog/loader';
import { STORY_NOW, type RecordedAnswers } from '../src/stories/harness/recorded';

const OUT = path.resolve('src/stories/fixtures/demo-answers.json');
// The demo seller's member (sellers/demo: the membership it ships); the stories' logged-in member.
const MEMBER = { username: 'member@example.com', password: 'MuseumDemo2026!' };
const ECOMM = { 'x-ticketing-app': 'ecomm' };

const handle = await openDatabase({});
await migrateToLatest(handle.db);
const now = new Date(STORY_NOW);
await loadSellerFolder(handle.db, path.resolve('sellers/demo'), { now });
const app = await buildApp({
  db: handle.db,
  dbKind: handle.kind,
  config: { ...readConfig({ STATIC_DIR: '/nonexistent-static', READ_CACHE_MS: '0' }), production: false },
  now: () => now,
});
await app.ready();

let cookies: Record<string, string> = {};
async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await app.inject({
    method,
    url: `/api/${url}${url.includes('?') ? '&' : '?'}_seller=demo`,
    headers: {
      ...ECOMM,
      cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
    ...(payload ? { payload } : {}),
  });
  for (const c of res.cookies) cookies = { ...cookies, [c.name]: c.value };
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const answers: RecordedAnswers = {} as RecordedAnswers;
answers.config = await call('GET', 'config?key._in=storefront,strings,content_blocks');
answers.events = await call('GET', 'events/available?hidden_type._in=public_browsable&_embed=venue,meta');
const admission = answers.events.event_template._data.find((e) => e.category === 'admission')!;
const id = admission.id;
answers.admission = await call('GET', `events/${id}?_embed=ticket_group,ticket_type,message_rule,ticket_rule,meta,config,venue`);
answers.calendar = await call('GET', `events/${id}/calendar?_format=extended`);
const day = answers.calendar.calendar._data.find((d) => d.status === 'available')!.date;
answers.sessions = await call('GET', `events/${id}/sessions?start_datetime._ondate=${day}&sold_out=T&_sort=start_datetime`);
// The first session that has not started (the day's earlier ones are over at STORY_NOW).
const session = answers.sessions.event_session._data.find((s) => Date.parse(s.start_datetime) > now.getTime() + 3600_000)!;
answers.session = await call('GET', `events/${id}/sessions/${session.id}?_embed=ticket_group,ticket_type`);

// A cart holding two admission tickets for that session, as the shopper's browser would have it.
const dated = answers.admission.ticket_type!._data.find((t) => {
  const group = answers.admission.ticket_group!._data.find((g) => g.id === t.ticket_group_id);
  return group && !group.flexible && group.hidden_type === 'public_browsable' && t.available;
})!;
const created = await call('POST', 'cart/modify', {
  add: [1, 2].map(() => ({ ticket_type_id: dated.id, event_session_id: session.id })),
});
answers.cart = await call('GET', `cart/${created.cart._data[0].id}?_embed=venue`);

// The demo member, logged in: who they are and their membership.
await call('POST', 'login', MEMBER);
answers.user = await call('GET', 'my/user?_embed=identity,identity.meta');
answers.memberships = await call('GET', 'my/membership?_embed=role,membership_program,role.membership_program');

await app.close();
await handle.close();
mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(answers, null, 1)}\n`);
console.log(`recorded ${Object.keys(answers).length} answers at ${STORY_NOW} into ${path.relative(process.cwd(), OUT)}`);
