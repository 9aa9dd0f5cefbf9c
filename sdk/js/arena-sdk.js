'use strict';
/*
 * Arena bot SDK for Node.js (no dependency; msgpack through @msgpack/msgpack
 * when it can be required, JSON otherwise).
 *
 *   const { Bot, run } = require('./arena-sdk');
 *   class MyBot extends Bot {
 *     decide(view, options, pick) { return 0; } // index, label, or a list
 *   }
 *   run(MyBot);
 *
 * The SDK sends `join`, answers every `hello` with `ready`, calls decide()
 * for every `decide` (it may return a Promise), reports `over`, and exits on
 * `bye` or when the referee closes the connection.
 */

const net = require('net');

const PROTOCOL_VERSION = 1;
const MAX_FRAME = 1 << 20;

let msgpackLib = null;
try {
  msgpackLib = require('@msgpack/msgpack');
} catch (e) {
  msgpackLib = null;
}

function msgpackAvailable() {
  return msgpackLib !== null;
}

class ProtocolError extends Error {}

/* ---- codecs: encode(msg) -> Buffer; decoder.push(chunk) -> [messages] ---- */

class JsonCodec {
  constructor(maxFrame = MAX_FRAME) {
    this.name = 'json';
    this.maxFrame = maxFrame;
    this.pending = [];
    this.pendingLen = 0;
  }
  encode(msg) {
    // JSON.stringify escapes newlines inside strings, so one object = one line
    return Buffer.from(JSON.stringify(msg) + '\n', 'utf8');
  }
  push(chunk) {
    const out = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      this.pending.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      this.pendingLen = 0;
      start = nl + 1;
      if (line.trim() === '') continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch (e) {
        throw new ProtocolError('bad JSON frame: ' + e.message);
      }
      if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
        throw new ProtocolError('JSON frame is not an object');
      }
      out.push(msg);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingLen += chunk.length - start;
      if (this.pendingLen > this.maxFrame) throw new ProtocolError('JSON frame too long');
    }
    return out;
  }
}

class MsgpackCodec {
  constructor(maxFrame = MAX_FRAME) {
    if (!msgpackLib) {
      throw new Error('the msgpack codec needs @msgpack/msgpack (npm install @msgpack/msgpack); use --json');
    }
    this.name = 'msgpack';
    this.maxFrame = maxFrame;
    this.buf = Buffer.alloc(0);
  }
  encode(msg) {
    const body = msgpackLib.encode(msg);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length, 0);
    return Buffer.concat([head, Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
  }
  push(chunk) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out = [];
    while (this.buf.length >= 4) {
      const n = this.buf.readUInt32BE(0);
      if (n > this.maxFrame) throw new ProtocolError('msgpack frame of ' + n + ' bytes is too large');
      if (this.buf.length < 4 + n) break;
      let msg;
      try {
        msg = msgpackLib.decode(this.buf.subarray(4, 4 + n));
      } catch (e) {
        throw new ProtocolError('bad msgpack frame: ' + e.message);
      }
      this.buf = this.buf.subarray(4 + n);
      if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
        throw new ProtocolError('msgpack frame is not a map');
      }
      out.push(msg);
    }
    return out;
  }
}

function makeCodec(name) {
  if (name === undefined || name === null) name = msgpackLib ? 'msgpack' : 'json';
  if (name === 'json') return new JsonCodec();
  if (name === 'msgpack') return new MsgpackCodec();
  throw new Error('unknown codec ' + name + ' (json or msgpack)');
}

/* ---- decision helpers ---- */

class Options extends Array {
  static of_(list) {
    const o = new Options();
    for (const x of list || []) o.push(x);
    return o;
  }
  labels() {
    return Array.from(this, (o) => o.label);
  }
  /** Index of the option with exactly this label, or -1. */
  find_(label) {
    for (let i = 0; i < this.length; i++) if (this[i].label === label) return i;
    return -1;
  }
  /** Index of the option with exactly this label; throws if absent. */
  indexOfLabel(label) {
    const i = this.find_(label);
    if (i < 0) throw new Error('no option labelled ' + JSON.stringify(label) + ' (have: ' + this.labels().join(', ') + ')');
    return i;
  }
  has(label) {
    return this.find_(label) >= 0;
  }
  /** Indices of the options whose label starts with prefix. */
  withPrefix(prefix) {
    const out = [];
    for (let i = 0; i < this.length; i++) if (String(this[i].label).startsWith(prefix)) out.push(i);
    return out;
  }
  /** {rest of label: index}: byPrefix('buy:') -> {Silver: 2, Province: 5}. */
  byPrefix(prefix) {
    const out = {};
    for (let i = 0; i < this.length; i++) {
      const l = String(this[i].label);
      if (l.startsWith(prefix) && !(l.slice(prefix.length) in out)) out[l.slice(prefix.length)] = i;
    }
    return out;
  }
}
// Array methods such as map/filter give plain arrays, not Options
Object.defineProperty(Options, Symbol.species, { get: () => Array });
Options.prototype.findLabel = Options.prototype.find_;

class Pick {
  constructor(info) {
    info = info || {};
    this.min = info.min !== undefined ? info.min : 1;
    this.max = info.max !== undefined ? info.max : 1;
    this.ordered = !!info.ordered;
  }
}

/** A local clock helper: the referee measures, this only helps budgeting. */
class Clock {
  constructor(info, now) {
    this.move_ms = 0;
    this.bank_ms = 0;
    this.game_ms = null;
    this.started = Clock.now();
    if (info) this.start(info, now);
  }
  static now() {
    return Number(process.hrtime.bigint()) / 1e6;
  }
  start(info, now) {
    info = info || {};
    this.started = now === undefined ? Clock.now() : now;
    this.move_ms = Number(info.move_ms || 0);
    this.bank_ms = Number(info.bank_ms || 0);
    this.game_ms = info.game_ms === undefined || info.game_ms === null ? null : Number(info.game_ms);
  }
  elapsedMs(now) {
    return (now === undefined ? Clock.now() : now) - this.started;
  }
  /** Past this the decision has timed out: move + bank, capped by the game clock. */
  limitMs() {
    let l = this.move_ms + this.bank_ms;
    if (this.game_ms !== null) l = Math.min(l, this.game_ms);
    return l;
  }
  /** Sensible time for this decision: move allowance + a share of the bank, minus a margin. */
  budgetMs(bankShare = 0.05, safety = 0.1, minSafetyMs = 5) {
    let b = Math.min(this.move_ms + bankShare * this.bank_ms, this.limitMs());
    const margin = Math.max(minSafetyMs, safety * b);
    return Math.max(0, b - margin);
  }
  remainingMs(now) {
    return this.budgetMs() - this.elapsedMs(now);
  }
  expired(now) {
    return this.remainingMs(now) <= 0;
  }
}

/** Small seedable generator (xorshift-multiply), so --seed reproduces a bot. */
class Rng {
  constructor(seed) {
    this.seed(seed === undefined ? Math.floor(Math.random() * 0x100000000) : seed);
  }
  seed(s) {
    this.state = (Number(s) >>> 0) ^ 0x9e3779b9;
    if (this.state === 0) this.state = 1;
  }
  /** Float in [0, 1). */
  random() {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo, hi) {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
}

/** Uniformly random legal answer: a count in [min, max], then that many distinct indices. */
function randomChoice(options, pick, rng) {
  rng = rng || new Rng();
  const n = options.length;
  const hi = Math.min(pick.max, n);
  const lo = Math.min(Math.max(pick.min, 0), hi);
  const k = rng.int(lo, hi);
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = rng.int(i, n - 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, k);
}

/** What decide returned -> checked list of indices. Accepts an index, a
 *  label, an option object, or an array of those. */
function normalizeChoice(choice, options, pick) {
  if (choice === undefined || choice === null) throw new Error('decide returned ' + choice);
  const items = Array.isArray(choice) ? choice : [choice];
  const out = items.map((c) => {
    let i;
    if (typeof c === 'number') i = c;
    else if (typeof c === 'string') i = options.indexOfLabel(c);
    else if (c && typeof c === 'object' && 'label' in c) i = options.indexOfLabel(c.label);
    else throw new Error('cannot turn ' + JSON.stringify(c) + ' into an option index');
    if (!Number.isInteger(i) || i < 0 || i >= options.length) {
      throw new Error('option index ' + i + ' out of range 0..' + (options.length - 1));
    }
    return i;
  });
  if (new Set(out).size !== out.length) throw new Error('option indices repeat: ' + JSON.stringify(out));
  if (out.length < pick.min || out.length > pick.max) {
    throw new Error(out.length + ' indices picked, the decision wants ' + pick.min + '..' + pick.max);
  }
  return out;
}

class Result {
  constructor(result, seat) {
    result = result || {};
    this.ranks = result.ranks || [];
    this.scores = result.scores || [];
    this.reason = result.reason;
    this.forfeits = result.forfeits || [];
    this.seat = seat;
    this.raw = result;
  }
  get rank() {
    return this.seat === null || this.seat === undefined ? null : this.ranks[this.seat];
  }
  get score() {
    return this.seat === null || this.seat === undefined ? null : this.scores[this.seat];
  }
  /** True when this seat ranked first alone. */
  get won() {
    return this.rank === 1 && this.ranks.filter((r) => r === 1).length === 1;
  }
}

/**
 * Base class. Override decide(); every hook is optional. The SDK sets
 * this.game (the hello message plus `name`), this.decision (the current
 * decide message with options/pick wrapped), this.clock and this.rng.
 * One bot object plays every game of its connection in turn.
 */
class Bot {
  constructor() {
    this.name = null; // defaults to the class name
    this.version = null;
    this.author = null;
    this.fallbackOnException = true;
    this.game = null;
    this.decision = null;
    this.clock = new Clock();
    this.rng = new Rng();
    this.argsExtra = [];
    this._conn = null;
  }
  onGameStart(game) {}
  decide(view, options, pick) {
    throw new Error('override Bot.decide');
  }
  onEvents(events) {}
  onError(error) {}
  onGameEnd(result, view) {}
  /** Stores a debug line in the match log (shown by `arena replay`). */
  log(text) {
    if (this._conn) this._conn.send({ type: 'log', text: String(text) });
  }
  randomChoice(options, pick) {
    return randomChoice(options, pick, this.rng);
  }
}

/* ---- the protocol loop ---- */

class Connection {
  /** write(buffer) sends bytes; feed incoming bytes with push(chunk). */
  constructor(codec, write) {
    this.codec = codec;
    this.write = write;
    this.queue = [];
    this.waiter = null;
    this.closed = false;
    this.error = null;
  }
  send(msg) {
    this.write(this.codec.encode(msg));
  }
  push(chunk) {
    try {
      for (const m of this.codec.push(chunk)) this.queue.push(m);
    } catch (e) {
      this.error = e;
    }
    this._wake();
  }
  end() {
    this.closed = true;
    this._wake();
  }
  _wake() {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w();
    }
  }
  /** Next message, or null at end of stream. */
  async recv() {
    for (;;) {
      if (this.queue.length) return this.queue.shift();
      if (this.error) throw this.error;
      if (this.closed) return null;
      await new Promise((resolve) => {
        this.waiter = resolve;
      });
    }
  }
}

async function decideOne(bot, msg) {
  const clock = bot.clock;
  clock.start(msg.clock);
  const d = {
    id: msg.id,
    kind: msg.kind,
    prompt: msg.prompt || '',
    options: Options.of_(msg.options),
    pick: new Pick(msg.pick),
    view: msg.view || {},
    events: msg.events || [],
    clock,
    raw: msg,
  };
  bot.decision = d;
  if (d.events.length) await bot.onEvents(d.events);
  try {
    const choice = await bot.decide(d.view, d.options, d.pick);
    return normalizeChoice(choice, d.options, d.pick);
  } catch (e) {
    if (!bot.fallbackOnException) throw e;
    process.stderr.write('[arena-sdk] decide failed, answering at random:\n' + (e && e.stack ? e.stack : e) + '\n');
    bot.log('decide failed, answered at random: ' + (e && e.message ? e.message : e));
    return randomChoice(d.options, d.pick, bot.rng);
  }
}

/** The referee ended the connection with a protocol `error` (e.g. 'unknown token'). */
class RefereeError extends Error {}

/** Calls a hook; with fallbackOnException an exception is shown on stderr
 * and in the match log instead of ending the program. */
async function guarded(bot, hook, fn) {
  try {
    return await fn();
  } catch (e) {
    if (!bot.fallbackOnException) throw e;
    process.stderr.write('[arena-sdk] ' + hook + ' failed, going on:\n' + (e && e.stack ? e.stack : e) + '\n');
    bot.log(hook + ' failed: ' + (e && e.message ? e.message : e));
    return undefined;
  }
}

/** Runs one connection to its end; resolves to the number of games played. */
async function play(bot, conn, token) {
  bot._conn = conn;
  const join = { type: 'join', name: bot.name || bot.constructor.name };
  if (bot.version !== null && bot.version !== undefined) join.version = String(bot.version);
  if (bot.author !== null && bot.author !== undefined) join.author = String(bot.author);
  if (token !== undefined && token !== null) join.token = token;
  conn.send(join);
  let games = 0;
  for (;;) {
    const msg = await conn.recv();
    if (msg === null) break;
    const t = msg.type;
    if (t === 'hello') {
      if (msg.protocol !== undefined && msg.protocol !== null && msg.protocol !== PROTOCOL_VERSION) {
        process.stderr.write('[arena-sdk] referee speaks protocol ' + msg.protocol + ', this SDK ' + PROTOCOL_VERSION + '\n');
      }
      bot.game = Object.assign({}, msg, { name: msg.game, options: msg.options || {} });
      await guarded(bot, 'onGameStart', () => bot.onGameStart(bot.game));
      conn.send({ type: 'ready' });
    } else if (t === 'decide') {
      const choice = await decideOne(bot, msg);
      conn.send({ type: 'act', id: msg.id, choice });
    } else if (t === 'event') {
      await bot.onEvents(msg.events || []);
    } else if (t === 'error') {
      await bot.onError(msg);
      // A protocol error (a refused join among them) ends the connection.
      if (msg.code === 'protocol') throw new RefereeError(String(msg.message || '(no message)'));
    } else if (t === 'over') {
      games++;
      const seat = bot.game ? bot.game.seat : null;
      await bot.onGameEnd(new Result(msg.result, seat), msg.view || {});
    } else if (t === 'bye') {
      break;
    }
    // unknown types are ignored (forward compatibility)
  }
  return games;
}

function parseArgs(argv) {
  const args = { codec: null, tcp: null, token: process.env.ARENA_TOKEN || null, serve: null, name: null, seed: null, extra: [] };
  const takes = { '--tcp': 'tcp', '--connect': 'tcp', '--token': 'token', '--serve': 'serve', '--name': 'name', '--seed': 'seed' };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let val = null;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    if (a === '--json' || a === '--msgpack') args.codec = a.slice(2);
    else if (a in takes) {
      if (val === null) {
        if (i + 1 >= argv.length) throw new Error(a + ' needs a value');
        val = argv[++i];
      }
      args[takes[a]] = val;
    } else args.extra.push(argv[i]);
  }
  if (args.seed !== null) args.seed = parseInt(args.seed, 10);
  return args;
}

const USAGE = `options (Arena JS SDK):
  --json | --msgpack     codec (default: msgpack when @msgpack/msgpack can be required, else JSON)
  --tcp HOST:PORT        connect to a referee listening for agents (alias --connect; needs --token)
  --token TOKEN          token sent in join (default: $ARENA_TOKEN)
  --serve HOST:PORT      wait for referees to dial in (agent spec tcp:HOST:PORT)
  --name NAME            name sent in join
  --seed N               seed of the bot's random generator (this.rng)
without --tcp/--serve the bot speaks on stdin/stdout (spawned by the referee)
`;

function splitHostPort(text) {
  const i = text.lastIndexOf(':');
  if (i < 0 || !/^\d+$/.test(text.slice(i + 1))) throw new Error('expected HOST:PORT, got ' + text);
  const host = text.slice(0, i).replace(/^\[|\]$/g, '') || '127.0.0.1';
  return [host, parseInt(text.slice(i + 1), 10)];
}

function socketConnection(sock, codecName) {
  sock.setNoDelay(true);
  const conn = new Connection(makeCodec(codecName), (buf) => sock.write(buf));
  sock.on('data', (chunk) => conn.push(chunk));
  sock.on('end', () => conn.end());
  sock.on('close', () => conn.end());
  sock.on('error', (e) => {
    conn.error = e;
    conn.end();
  });
  return conn;
}

/**
 * Entry point of a bot program: run(MyBot) (a class or a factory function).
 * Flags: --json/--msgpack (default msgpack when @msgpack/msgpack can be
 * required), --tcp HOST:PORT --token T, --serve HOST:PORT, --name, --seed.
 * Without --tcp/--serve the bot talks over stdin/stdout, and console.log is
 * pointed at stderr so that it cannot break the protocol stream.
 */
function run(factory, argv) {
  let args;
  argv = argv || process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  try {
    args = parseArgs(argv);
    makeCodec(args.codec); // fail early on a missing codec
  } catch (e) {
    process.stderr.write('error: ' + e.message + '\n');
    process.exit(2);
  }
  const newBot = () => {
    let bot;
    try {
      bot = new factory();
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      bot = factory();
    }
    if (args.name) bot.name = args.name;
    if (args.seed !== null && !Number.isNaN(args.seed)) bot.rng.seed(args.seed);
    bot.argsExtra = args.extra;
    return bot;
  };
  const fatal = (e) => {
    if (e instanceof RefereeError) process.stderr.write('[arena-sdk] the referee ended the connection: ' + e.message + '\n');
    else process.stderr.write('[arena-sdk] ' + (e && e.stack ? e.stack : e) + '\n');
    process.exit(1);
  };

  if (args.serve) {
    const [host, port] = splitHostPort(args.serve);
    const srv = net.createServer((sock) => {
      play(newBot(), socketConnection(sock, args.codec))
        .catch((e) => process.stderr.write('[arena-sdk] connection ended: ' + e.message + '\n'))
        .finally(() => sock.end());
    });
    srv.listen(port, host, () => {
      const a = srv.address();
      process.stderr.write('[arena-sdk] serving on ' + a.address + ':' + a.port + '\n');
    });
    return srv;
  }

  if (args.tcp) {
    const [host, port] = splitHostPort(args.tcp);
    const sock = net.connect(port, host);
    const conn = socketConnection(sock, args.codec);
    sock.on('connect', () => {
      play(newBot(), conn, args.token).then(() => {
        sock.end(() => process.exit(0));
      }, fatal);
    });
    sock.on('error', fatal);
    return null;
  }

  // stdio: keep fd 1 for the protocol
  const out = process.stdout;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const conn = new Connection(makeCodec(args.codec), (buf) => out.write(buf));
  process.stdin.on('data', (chunk) => conn.push(chunk));
  process.stdin.on('end', () => conn.end());
  process.stdin.on('error', () => conn.end());
  play(newBot(), conn).then(() => {
    process.stdin.pause();
    out.write('', () => process.exit(0));
  }, fatal);
  return null;
}

/* ---- typed helpers per game (see docs/games/*.md) ---- */

/** 'buy:soldier:2:Bomber' -> ['buy', 'soldier', 2, 'Bomber'] (whole numbers as numbers). */
function splitLabel(label) {
  return String(label).split(':').map((f) => (/^\d+$/.test(f) ? Number(f) : f));
}

const games = {
  splitLabel,
  nim: {
    KIND: 'take',
    /** Answer taking n stones (clamped to what the options allow). */
    take(options, n) {
      n = Math.max(1, Math.min(n, options.length));
      return Array.from({ length: n }, (_, i) => i);
    },
  },
  dominion: {
    ACTION: 'action',
    BUY: 'buy',
    END_ACTIONS: 'end-actions',
    END_TURN: 'end-turn',
    /** 'buy:Province' -> 'Province'; null for labels without a card. */
    card(label) {
      const i = typeof label === 'string' ? label.indexOf(':') : -1;
      return i < 0 ? null : label.slice(i + 1);
    },
    buys(options) {
      return options.byPrefix('buy:');
    },
    plays(options) {
      return options.byPrefix('play:');
    },
    /** Coins available now (treasures are played for you at the buy phase). */
    coins(view) {
      return Number(view.coins || 0);
    },
    buysLeft(view) {
      return Number(view.buys || 0);
    },
    actionsLeft(view) {
      return Number(view.actions || 0);
    },
    /** This seat's entry of view.players (hand, in_play, sizes...). */
    me(view) {
      return (view.players || []).find((p) => p.seat === view.seat) || {};
    },
    /** Card names in this seat's hand. */
    hand(view) {
      return (games.dominion.me(view).hand || []).slice();
    },
    /** {card name: cards left in its pile}. */
    supply(view) {
      return Object.assign({}, view.supply || {});
    },
  },
  pacifica: {
    ACTION: 'action',
    CATEGORIES: ['Treasure', 'Population', 'Resources', 'Architecture', 'Knowledge', 'Machines', 'Festival'],
    CATEGORY_LETTERS: { Treasure: 'T', Population: 'P', Resources: 'SB', Architecture: 'A', Knowledge: 'K', Machines: 'M', Festival: 'F' },
    /** {category: option index} of the draw: options. */
    draws(options) {
      return options.byPrefix('draw:');
    },
    /** {card id: option index} of the play: options. */
    plays(options) {
      return options.byPrefix('play:');
    },
    /** Active symbols a seat has toward a category's idol. */
    categoryCount(view, category, seat) {
      if (seat === undefined) seat = view.seat;
      const syms = (view.symbols || [])[seat] || {};
      let n = 0;
      for (const ch of games.pacifica.CATEGORY_LETTERS[category] || '') n += Number(syms[ch] || 0);
      return n;
    },
    /** {idol name: its map (owner, need, secured)}. */
    idols(view) {
      const out = {};
      for (const i of view.idols || []) out[i.name] = i;
      return out;
    },
    /**
     * One card_list line of the game options ('T09 Treasure grey symbols=TT
     * need=P') -> {id, category, activation, symbols, need, discard, effect}.
     */
    parseCardLine(line) {
      const parts = String(line).split(/\s+/).filter((p) => p !== '');
      const card = {
        id: parts[0],
        category: parts.length > 1 ? parts[1] : null,
        activation: parts.length > 2 ? parts[2] : null,
        symbols: '',
        need: '',
        discard: '',
        effect: null,
      };
      for (const p of parts.slice(3)) {
        const eq = p.indexOf('=');
        const key = eq < 0 ? p : p.slice(0, eq);
        if (Object.prototype.hasOwnProperty.call(card, key)) card[key] = eq < 0 ? '' : p.slice(eq + 1);
      }
      return card;
    },
    /** {card id: parsed card} from the card_list game option (empty if absent). */
    cards(gameOptions) {
      const out = {};
      for (const line of (gameOptions || {}).card_list || []) {
        if (typeof line === 'string' && line.trim()) {
          const c = games.pacifica.parseCardLine(line);
          out[c.id] = c;
        }
      }
      return out;
    },
  },
  xibalba: {
    KINDS: ['effect_order', 'dice_pool', 'dice_effect_order', 'keep', 'action', 'attack_dice', 'block', 'destroy', 'place', 'reorganize'],
    /** [[index, fields after the verb]] of the options whose first field is verb. */
    withVerb(options, verb) {
      const out = [];
      options.forEach((o, i) => {
        const f = splitLabel(o.label);
        if (f[0] === verb) out.push([i, f.slice(1)]);
      });
      return out;
    },
  },
};

module.exports = {
  PROTOCOL_VERSION,
  RefereeError,
  Bot,
  Options,
  Pick,
  Clock,
  Rng,
  Result,
  Connection,
  JsonCodec,
  MsgpackCodec,
  ProtocolError,
  makeCodec,
  msgpackAvailable,
  randomChoice,
  normalizeChoice,
  parseArgs,
  play,
  run,
  games,
};
