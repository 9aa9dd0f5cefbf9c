'use strict';
// Test-only stand-in for the npm package @msgpack/msgpack (not installed in
// CI): the same two functions, encode(value) -> Uint8Array and
// decode(bytes) -> value, for the types the Arena protocol uses (nil, bool,
// int, float64, str, bin, array, map). Lets the JS SDK's msgpack framing be
// tested against Python's msgpack. Put this directory on NODE_PATH.

function encode(value) {
  const parts = [];
  const push = (b) => parts.push(Buffer.isBuffer(b) ? b : Buffer.from(b));
  const head = (fix, fixMax, c8, c16, c32, n) => {
    if (fixMax !== null && n <= fixMax) push([fix | n]);
    else if (c8 !== null && n < 0x100) push([c8, n]);
    else if (n < 0x10000) { const b = Buffer.alloc(3); b[0] = c16; b.writeUInt16BE(n, 1); push(b); }
    else { const b = Buffer.alloc(5); b[0] = c32; b.writeUInt32BE(n, 1); push(b); }
  };
  const enc = (v) => {
    if (v === null || v === undefined) push([0xc0]);
    else if (v === true) push([0xc3]);
    else if (v === false) push([0xc2]);
    else if (typeof v === 'number' && Number.isInteger(v)) {
      if (v >= 0 && v < 128) push([v]);
      else if (v < 0 && v >= -32) push([v & 0xff]);
      else {
        const b = Buffer.alloc(9);
        if (v >= 0) { b[0] = 0xcf; b.writeBigUInt64BE(BigInt(v), 1); } else { b[0] = 0xd3; b.writeBigInt64BE(BigInt(v), 1); }
        push(b);
      }
    } else if (typeof v === 'number') {
      const b = Buffer.alloc(9); b[0] = 0xcb; b.writeDoubleBE(v, 1); push(b);
    } else if (typeof v === 'string') {
      const s = Buffer.from(v, 'utf8');
      head(0xa0, 31, 0xd9, 0xda, 0xdb, s.length); push(s);
    } else if (v instanceof Uint8Array) {
      head(0, null, 0xc4, 0xc5, 0xc6, v.length); push(Buffer.from(v));
    } else if (Array.isArray(v)) {
      head(0x90, 15, null, 0xdc, 0xdd, v.length); v.forEach(enc);
    } else if (typeof v === 'object') {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined);
      head(0x80, 15, null, 0xde, 0xdf, keys.length);
      for (const k of keys) { enc(k); enc(v[k]); }
    } else throw new Error('cannot encode ' + typeof v);
  };
  enc(value);
  return new Uint8Array(Buffer.concat(parts));
}

function decode(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const need = (n) => { if (p + n > b.length) throw new RangeError('truncated msgpack'); };
  const str = (n) => { need(n); const s = b.toString('utf8', p, p + n); p += n; return s; };
  const arr = (n) => { const a = []; for (let i = 0; i < n; i++) a.push(dec()); return a; };
  const map = (n) => { const m = {}; for (let i = 0; i < n; i++) { const k = dec(); m[k] = dec(); } return m; };
  const u = (n) => { need(n); const v = n === 1 ? b[p] : n === 2 ? b.readUInt16BE(p) : n === 4 ? b.readUInt32BE(p) : Number(b.readBigUInt64BE(p)); p += n; return v; };
  const s = (n) => { need(n); const v = n === 1 ? b.readInt8(p) : n === 2 ? b.readInt16BE(p) : n === 4 ? b.readInt32BE(p) : Number(b.readBigInt64BE(p)); p += n; return v; };
  const dec = () => {
    need(1);
    const c = b[p++];
    if (c < 0x80) return c;
    if (c >= 0xe0) return c - 0x100;
    if ((c & 0xf0) === 0x80) return map(c & 0x0f);
    if ((c & 0xf0) === 0x90) return arr(c & 0x0f);
    if ((c & 0xe0) === 0xa0) return str(c & 0x1f);
    switch (c) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: case 0xc5: case 0xc6: { const n = u(c === 0xc4 ? 1 : c === 0xc5 ? 2 : 4); need(n); const v = new Uint8Array(b.subarray(p, p + n)); p += n; return v; }
      case 0xca: { need(4); const v = b.readFloatBE(p); p += 4; return v; }
      case 0xcb: { need(8); const v = b.readDoubleBE(p); p += 8; return v; }
      case 0xcc: return u(1);
      case 0xcd: return u(2);
      case 0xce: return u(4);
      case 0xcf: return u(8);
      case 0xd0: return s(1);
      case 0xd1: return s(2);
      case 0xd2: return s(4);
      case 0xd3: return s(8);
      case 0xd9: return str(u(1));
      case 0xda: return str(u(2));
      case 0xdb: return str(u(4));
      case 0xdc: return arr(u(2));
      case 0xdd: return arr(u(4));
      case 0xde: return map(u(2));
      case 0xdf: return map(u(4));
      default: throw new Error('unsupported msgpack byte 0x' + c.toString(16));
    }
  };
  const v = dec();
  if (p !== b.length) throw new RangeError('extra bytes after msgpack value');
  return v;
}

module.exports = { encode, decode };
