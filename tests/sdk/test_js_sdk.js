#!/usr/bin/env node
'use strict';
// Unit tests of the JS SDK (sdk/js/arena-sdk.js), run in-process.
const assert = require('assert');
const path = require('path');
const sdk = require(path.join(__dirname, '..', '..', 'sdk', 'js', 'arena-sdk.js'));
const { Bot, Options, Pick, Clock, Rng, JsonCodec, normalizeChoice, randomChoice, play, parseArgs, games } = sdk;

class ScriptConn {
  constructor(messages) {
    this.inbox = messages.slice();
    this.sent = [];
  }
  send(m) {
    this.sent.push(m);
  }
  async recv() {
    return this.inbox.length ? this.inbox.shift() : null;
  }
}

function decideMsg(id, labels, min = 1, max = 1, view = {}, events = []) {
  return {
    type: 'decide', id, kind: 'k', prompt: 'p', options: labels.map((label) => ({ label })),
    pick: { min, max, ordered: false }, view, events, clock: { move_ms: 100, bank_ms: 1000, game_ms: null },
  };
}
const HELLO = { type: 'hello', protocol: 1, game: 'nim', options: { stones: 5 }, seat: 1, players: 2, names: ['a', 'b'], match: 'm', clock: {} };
const OVER = { type: 'over', result: { ranks: [2, 1], scores: [0, 1], reason: 'normal', forfeits: [] }, view: { stones: 0 } };

const tests = [];
const test = (name, fn) => tests.push([name, fn]);

test('options helpers', () => {
  const o = Options.of_([{ label: 'buy:Silver' }, { label: 'buy:Province' }, { label: 'end-turn' }, { label: 'play:Smithy' }]);
  assert.deepStrictEqual(o.labels(), ['buy:Silver', 'buy:Province', 'end-turn', 'play:Smithy']);
  assert.strictEqual(o.findLabel('end-turn'), 2);
  assert.strictEqual(o.findLabel('buy:Gold'), -1);
  assert.ok(o.has('play:Smithy'));
  assert.throws(() => o.indexOfLabel('buy:Gold'));
  assert.deepStrictEqual(o.withPrefix('buy:'), [0, 1]);
  assert.deepStrictEqual(o.byPrefix('buy:'), { Silver: 0, Province: 1 });
  assert.deepStrictEqual(games.dominion.buys(o), { Silver: 0, Province: 1 });
  assert.deepStrictEqual(games.dominion.plays(o), { Smithy: 3 });
  assert.strictEqual(games.dominion.card('buy:Province'), 'Province');
  assert.strictEqual(games.dominion.card('end-turn'), null);
  assert.ok(!(o.map((x) => x) instanceof Options));
});

test('game helpers', () => {
  assert.deepStrictEqual(games.splitLabel('buy:soldier:2:Bomber'), ['buy', 'soldier', 2, 'Bomber']);
  const o = Options.of_([{ label: 'end' }, { label: 'buy:soldier:2:Bomber' }, { label: 'attack:ark' }]);
  assert.deepStrictEqual(games.xibalba.withVerb(o, 'buy'), [[1, ['soldier', 2, 'Bomber']]]);
  const view = { seat: 1, coins: 5, buys: 2, players: [{ seat: 0 }, { seat: 1, hand: ['Gold'] }],
    symbols: [{ T: 9 }, { S: 2, B: 1, T: 1 }], idols: [{ name: 'Resources', owner: -1, need: 3, secured: false }] };
  assert.strictEqual(games.dominion.coins(view), 5);
  assert.strictEqual(games.dominion.buysLeft(view), 2);
  assert.deepStrictEqual(games.dominion.hand(view), ['Gold']);
  assert.strictEqual(games.pacifica.categoryCount(view, 'Resources'), 3);
  assert.strictEqual(games.pacifica.categoryCount(view, 'Treasure', 0), 9);
  assert.strictEqual(games.pacifica.idols(view).Resources.need, 3);
});

test('normalizeChoice', () => {
  const o = Options.of_([{ label: 'a' }, { label: 'b' }, { label: 'c' }]);
  const one = new Pick({ min: 1, max: 1 });
  const two = new Pick({ min: 0, max: 2 });
  assert.deepStrictEqual(normalizeChoice(2, o, one), [2]);
  assert.deepStrictEqual(normalizeChoice('b', o, one), [1]);
  assert.deepStrictEqual(normalizeChoice({ label: 'a' }, o, one), [0]);
  assert.deepStrictEqual(normalizeChoice(['c', 0], o, two), [2, 0]);
  assert.deepStrictEqual(normalizeChoice([], o, two), []);
  for (const [bad, pick] of [[null, one], [undefined, one], [3, one], [-1, one], [1.5, one], [[0, 1], one], [[1, 1], two], ['zz', one], [true, one], [[], one]]) {
    assert.throws(() => normalizeChoice(bad, o, pick), undefined, JSON.stringify(bad));
  }
});

test('randomChoice legal, covers sizes, seeded', () => {
  const o = Options.of_([{ label: 'a' }, { label: 'b' }, { label: 'c' }, { label: 'd' }]);
  const pick = new Pick({ min: 1, max: 3, ordered: true });
  const rng = new Rng(5);
  const sizes = new Set();
  for (let i = 0; i < 300; i++) {
    const c = randomChoice(o, pick, rng);
    assert.deepStrictEqual(normalizeChoice(c, o, pick), c);
    sizes.add(c.length);
  }
  assert.deepStrictEqual([...sizes].sort(), [1, 2, 3]);
  const a = new Rng(9), b = new Rng(9);
  assert.deepStrictEqual([a.random(), a.random()], [b.random(), b.random()]);
  assert.deepStrictEqual(randomChoice(Options.of_([{ label: 'x' }]), new Pick({ min: 1, max: 5 }), rng), [0]);
});

test('clock', () => {
  const c = new Clock({ move_ms: 100, bank_ms: 1000, game_ms: null }, 0);
  assert.strictEqual(c.limitMs(), 1100);
  assert.ok(Math.abs(c.budgetMs() - 135) < 1e-9);
  assert.strictEqual(c.elapsedMs(50), 50);
  assert.ok(!c.expired(100));
  assert.ok(c.expired(200));
  const g = new Clock({ move_ms: 100, bank_ms: 1000, game_ms: 40 }, 0);
  assert.strictEqual(g.limitMs(), 40);
  assert.strictEqual(g.budgetMs(), 35);
});

test('json codec framing', () => {
  const c = new JsonCodec();
  const msg = { type: 'log', text: 'two\nlines é', n: [1, -2, 2 ** 40] };
  const enc = c.encode(msg);
  assert.strictEqual(enc.filter((b) => b === 10).length, 1);
  const d = new JsonCodec();
  const all = Buffer.concat([enc, c.encode({ type: 'bye' })]);
  // split inside a multi-byte character and across frames
  const out = [...d.push(all.subarray(0, 25)), ...d.push(all.subarray(25, 26)), ...d.push(all.subarray(26))];
  assert.deepStrictEqual(out, [msg, { type: 'bye' }]);
  assert.throws(() => new JsonCodec().push(Buffer.from('[1]\n')), sdk.ProtocolError);
  assert.throws(() => new JsonCodec().push(Buffer.from('{x\n')), sdk.ProtocolError);
  assert.throws(() => new JsonCodec(10).push(Buffer.from('{"type":"aaaaaaaaaaa')), sdk.ProtocolError);
});

test('msgpack codec when available', () => {
  if (sdk.msgpackAvailable()) {
    const c = sdk.makeCodec('msgpack');
    const enc = c.encode({ type: 'bye', n: 5 });
    assert.strictEqual(enc.readUInt32BE(0), enc.length - 4);
    assert.deepStrictEqual(c.push(enc), [{ type: 'bye', n: 5 }]);
    assert.strictEqual(sdk.makeCodec().name, 'msgpack');
  } else {
    assert.throws(() => sdk.makeCodec('msgpack'), /@msgpack\/msgpack/);
    assert.strictEqual(sdk.makeCodec().name, 'json');
  }
});

test('argument parsing', () => {
  const a = parseArgs(['--json', '--connect', 'h:1', '--token=t', '--seed', '4', '--depth', '3']);
  assert.strictEqual(a.codec, 'json');
  assert.strictEqual(a.tcp, 'h:1');
  assert.strictEqual(a.token, 't');
  assert.strictEqual(a.seed, 4);
  assert.deepStrictEqual(a.extra, ['--depth', '3']);
});

test('loop: hooks, answers, bye', async () => {
  const calls = [];
  class B extends Bot {
    constructor() {
      super();
      this.name = 'hooky';
      this.version = '1.2';
    }
    onGameStart(g) { calls.push(['start', g.name, g.seat, g.options.stones]); }
    onEvents(ev) { calls.push(['events', ev.length]); }
    onError(e) { calls.push(['error', e.code]); }
    async decide(view, options, pick) {
      calls.push(['decide', this.decision.kind, view.stones, this.clock.move_ms]);
      this.log('thinking');
      return options.labels()[options.length - 1];
    }
    onGameEnd(r, view) { calls.push(['end', r.rank, r.won, r.reason, view.stones]); }
  }
  const conn = new ScriptConn([HELLO, decideMsg(1, ['stone:1', 'stone:2'], 1, 2, { stones: 5 }, [{ t: 1 }]),
    { type: 'event', events: [{ t: 2 }, { t: 3 }] }, { type: 'error', id: 1, code: 'illegal' }, { type: 'new-thing' },
    decideMsg(2, ['stone:1'], 1, 1, { stones: 1 }), OVER, { type: 'bye' }, decideMsg(3, ['never'])]);
  assert.strictEqual(await play(new B(), conn, 't'), 1);
  assert.deepStrictEqual(conn.sent[0], { type: 'join', name: 'hooky', version: '1.2', token: 't' });
  assert.deepStrictEqual(conn.sent[1], { type: 'ready' });
  assert.deepStrictEqual(conn.sent.filter((m) => m.type === 'act'), [{ type: 'act', id: 1, choice: [1] }, { type: 'act', id: 2, choice: [0] }]);
  assert.strictEqual(conn.sent.filter((m) => m.type === 'log').length, 2);
  assert.deepStrictEqual(calls, [['start', 'nim', 1, 5], ['events', 1], ['decide', 'k', 5, 100], ['events', 2],
    ['error', 'illegal'], ['decide', 'k', 1, 100], ['end', 1, true, 'normal', 0]]);
  assert.strictEqual(conn.inbox.length, 1);
});

test('loop: exception falls back to a random answer', async () => {
  class B extends Bot {
    decide() { throw new Error('boom'); }
  }
  const conn = new ScriptConn([HELLO, decideMsg(5, ['a', 'b', 'c'], 2, 2)]);
  const write = process.stderr.write;
  let printed = '';
  process.stderr.write = (s) => { printed += s; return true; };
  try {
    await play(new B(), conn);
  } finally {
    process.stderr.write = write;
  }
  assert.strictEqual(conn.sent[0].name, 'B');
  const act = conn.sent[conn.sent.length - 1];
  assert.strictEqual(act.type, 'act');
  assert.strictEqual(new Set(act.choice).size, 2);
  assert.ok(conn.sent.some((m) => m.type === 'log' && m.text.includes('boom')));
  assert.ok(printed.includes('boom'));
});

test('loop: an exception in onGameStart is shown and play goes on', async () => {
  class B extends Bot {
    onGameStart() { throw new Error('no-such-card'); }
    decide() { return 0; }
  }
  const conn = new ScriptConn([HELLO, decideMsg(1, ['a']), OVER, { type: 'bye' }]);
  const write = process.stderr.write;
  let printed = '';
  process.stderr.write = (s) => { printed += s; return true; };
  try {
    assert.strictEqual(await play(new B(), conn), 1);
  } finally {
    process.stderr.write = write;
  }
  assert.deepStrictEqual(conn.sent.filter((m) => m.type !== 'log').map((m) => m.type), ['join', 'ready', 'act']);
  assert.ok(conn.sent.some((m) => m.type === 'log' && m.text.includes('onGameStart') && m.text.includes('no-such-card')));
  assert.ok(printed.includes('onGameStart failed'));
});

test('loop: a protocol error ends with a RefereeError', async () => {
  const conn = new ScriptConn([{ type: 'error', code: 'protocol', message: 'unknown token' }]);
  await assert.rejects(play(new Bot(), conn), (e) => e instanceof sdk.RefereeError && e.message.includes('unknown token'));
});

test('loop: strict bot rejects an invalid choice', async () => {
  class B extends Bot {
    constructor() { super(); this.fallbackOnException = false; }
    decide() { return 7; }
  }
  await assert.rejects(play(new B(), new ScriptConn([HELLO, decideMsg(1, ['a'])])));
});

(async () => {
  let failed = 0;
  for (const [name, fn] of tests) {
    try {
      await fn();
      console.log('ok -', name);
    } catch (e) {
      failed++;
      console.log('FAIL -', name, '\n', e && e.stack);
    }
  }
  process.exit(failed ? 1 : 0);
})();
