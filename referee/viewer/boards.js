// The boards of Arena's games, drawn from a view (docs/games/): one code
// for the replay viewer (viewer.html, where embed.py inlines it) and the
// web front's live pages (served as /boards.js). Every string of a view is
// put on screen as text (textContent), never as markup: agents' names and
// card names are not trusted. A view may lack any field (a spectator's
// public view has no hands, no options): each drawing shows what is there
// and lists unknown keys under "other".
'use strict';
const ArenaBoards = (() => {
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  const list = (x) => (Array.isArray(x) ? x : []);

  // An event as `arena replay` prints it: "draw: seat 1, card T07, name Coins".
  function compact(e) {
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return JSON.stringify(e);
    const parts = Object.keys(e).filter((k) => k !== 'type')
      .map((k) => k + ' ' + (typeof e[k] === 'string' ? e[k] : JSON.stringify(e[k])));
    return (typeof e.type === 'string' ? e.type : 'event') + (parts.length ? ': ' + parts.join(', ') : '');
  }

  /* ---- generic drawing of any view value ---- */
  function scalar(v) { return v === null ? '–' : typeof v === 'object' ? JSON.stringify(v) : String(v); }
  function isScalarList(v) { return Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'); }
  function generic(v) {
    if (v === null || typeof v !== 'object') return el('span', null, scalar(v));
    if (isScalarList(v)) {
      const d = el('div');
      if (!v.length) add(d, el('span', 'mute', 'none'));
      v.forEach((x) => add(d, el('span', 'chip', scalar(x))));
      return d;
    }
    if (Array.isArray(v)) {
      const d = el('div');
      v.forEach((x, i) => { const t = add(d, el('div', 'tile')); add(t, el('div', 'mute', '#' + i)); add(t, generic(x)); });
      return d;
    }
    const t = el('table', 'kv');
    Object.keys(v).forEach((k) => {
      const tr = add(t, el('tr'));
      add(tr, el('td', null, k));
      add(add(tr, el('td')), generic(v[k]));
    });
    return t;
  }
  function box(parent, title, content) {
    add(parent, el('h3', null, title));
    add(parent, content);
  }
  function chips(items, cls) {
    const d = el('div');
    if (!items || !items.length) add(d, el('span', 'mute', 'none'));
    list(items).forEach((x) => add(d, el('span', 'chip' + (cls ? ' ' + cls : ''), typeof x === 'object' ? JSON.stringify(x) : x)));
    return d;
  }
  function rest(parent, v, used) {
    const other = {};
    Object.keys(v).forEach((k) => { if (!used.includes(k)) other[k] = v[k]; });
    if (Object.keys(other).length) box(parent, 'other', generic(other));
  }
  function badges(parent, v, keys) {
    const d = add(parent, el('div'));
    keys.forEach((k) => { if (k in v) add(d, el('span', 'badge', k.replace(/_/g, ' ') + ': ' + scalar(v[k]))); });
  }

  // The drawer of one game: its name ("dominion"; another or none draws
  // the generic tree), the seats' agent names, and its settings if known
  // (Pacifica's card_list names the cards; absent, cards show their ids).
  function drawer(game, names, options) {
    names = list(names);
    // The card table (Pacifica's card_list: "ID CATEGORY ACTIVATION symbols=..
    // [need=..] [discard=..] [effect=..] [name=..]"): an id reads "T09 Hoard", an
    // option label "play:T09 (Hoard)", and a card on the board shows its symbols
    // and what it costs to activate.
    const CARD_NAMES = {}, CARDS = {};
    list((options || {}).card_list).forEach((line) => {
      const parts = String(line).split(/\s+/).filter((x) => x);
      if (!parts.length) return;
      const c = { id: parts[0], activation: parts[2] || '' };
      parts.slice(3).forEach((kv) => { const i = kv.indexOf('='); if (i > 0) c[kv.slice(0, i)] = kv.slice(i + 1); });
      CARDS[c.id] = c;
      if (c.name && c.name !== c.id) CARD_NAMES[c.id] = c.name;
    });
    const named = (id) => (CARD_NAMES[id] ? id + ' ' + CARD_NAMES[id] : id);
    // "TT", "needs P", "discard SS", "free" (green), and the effect if any.
    function cardFacts(id) {
      const c = CARDS[id];
      if (!c) return '';
      const cost = c.activation === 'grey' ? 'needs ' + (c.need || '?')
        : c.activation === 'red' ? 'discard ' + (c.discard || '?') : 'free';
      return [c.symbols || '–', cost].concat(c.effect ? [c.effect] : []).join(' · ');
    }
    function cardChip(id, cls) {
      const e = el('span', 'chip' + (cls ? ' ' + cls : ''));
      add(e, el('span', null, named(id)));
      const f = cardFacts(id);
      if (f) {
        add(e, el('span', 'facts', ' ' + f));
        e.title = 'symbols · cost to activate' + (CARDS[id].effect ? ' · effect' : '');
      }
      return e;
    }
    function labelNamed(label) {
      const m = /^[^:]+:(.+)$/.exec(label);
      return m && CARD_NAMES[m[1]] ? label + ' (' + CARD_NAMES[m[1]] + ')' : label;
    }
    const name = (s) => (s >= 0 && s < names.length ? 'seat ' + s + ' ' + names[s] : 'referee');
    let over = false; // the board drawn is the end of the game: nobody is to play
    const toPlay = (s, cur) => !over && s === cur;

    /* ---- one drawing per game; unknown keys still shown by `rest` ---- */
    const draw = {
      dominion(v, b) {
        badges(b, v, ['turn', 'current', 'actions', 'buys', 'coins', 'extra_turn', 'over']);
        const sup = el('div', 'supply');
        const supply = v.supply || {};
        Object.keys(supply).forEach((c) => {
          const t = add(sup, el('div', 'tile' + (supply[c] ? '' : ' empty')));
          add(t, el('div', null, c));
          add(t, el('div', 'n', supply[c]));
          if (v.embargo && v.embargo[c]) add(t, el('div', 'fallback', 'embargo ' + v.embargo[c]));
        });
        box(b, 'supply', sup);
        const trash = [];
        Object.keys(v.trash || {}).forEach((c) => trash.push(v.trash[c] > 1 ? c + ' ×' + v.trash[c] : c));
        box(b, 'trash', chips(trash));
        list(v.players).forEach((p, i) => {
          p = p || {};
          const s = p.seat !== undefined ? p.seat : i;
          const d = add(b, el('div', 'player' + (toPlay(s, v.current) ? ' current' : '')));
          add(d, el('h3', null, name(s) + (toPlay(s, v.current) ? ' — to play' : '')));
          badges(d, p, ['score', 'deck_size', 'discard_size', 'discard_top', 'hand_size', 'vp_tokens', 'coin_tokens', 'turns']);
          add(d, el('div', 'mute', 'hand'));
          add(d, p.hand ? chips(p.hand) : chips(Array(Math.max(0, Math.min(Number(p.hand_size) || 0, 500))).fill('?'), 'hidden'));
          add(d, el('div', 'mute', 'in play'));
          add(d, chips(p.in_play));
          ['duration', 'island_mat', 'native_village_mat', 'haven', 'aside'].forEach((m) => {
            if (p[m] && p[m].length) { add(d, el('div', 'mute', m.replace(/_/g, ' '))); add(d, chips(p[m])); }
          });
          if (!p.native_village_mat && p.native_village_size) add(d, el('div', 'mute', 'native village: ' + p.native_village_size + ' face down'));
          if (!p.haven && p.haven_size) add(d, el('div', 'mute', 'haven: ' + p.haven_size + ' set aside'));
        });
        rest(b, v, ['turn', 'current', 'actions', 'buys', 'coins', 'extra_turn', 'over', 'seat', 'supply', 'embargo', 'trash', 'players']);
      },
      pacifica(v, b) {
        badges(b, v, ['turn', 'to_move', 'actions_left']);
        const idols = el('div');
        list(v.idols).forEach((x) => {
          x = x || {};
          const t = add(idols, el('div', 'tile'));
          add(t, el('div', null, x.name));
          add(t, el('div', 'n', 'level ' + x.level));
          add(t, el('div', 'mute', (x.owner >= 0 ? name(x.owner) : 'nobody') + (x.secured ? ', secured' : ', needs ' + x.need)));
        });
        box(b, 'idols (dials)', idols);
        const st = el('div');
        Object.keys(v.stacks || {}).forEach((c) => { const t = add(st, el('div', 'tile')); add(t, el('div', null, c)); add(t, el('div', 'n', v.stacks[c])); });
        box(b, 'stacks', st);
        list(v.cities).forEach((city, s) => {
          const d = add(b, el('div', 'player' + (toPlay(s, v.to_move) ? ' current' : '')));
          add(d, el('h3', null, name(s) + (toPlay(s, v.to_move) ? ' — to play' : '')));
          const hand = v.hands ? v.hands[s] : s === v.seat ? v.hand : undefined;
          add(d, el('div', 'mute', 'hand' + (v.hand_limits ? ' (limit ' + v.hand_limits[s] + ')' : '')));
          if (Array.isArray(hand)) {
            const h = add(d, el('div'));
            if (!hand.length) add(h, el('span', 'mute', 'none'));
            hand.forEach((id) => add(h, cardChip(id)));
          } else if (v.hand_backs && Array.isArray(v.hand_backs[s])) {
            // a spectator's: the backs (a category), the id where both seats know it
            const h = add(d, el('div'));
            if (!v.hand_backs[s].length) add(h, el('span', 'mute', 'none'));
            v.hand_backs[s].forEach((c) => add(h, c && c.id ? cardChip(c.id)
              : el('span', 'chip hidden', (c && c.category) || '?')));
          } else {
            add(d, chips(Array(Math.max(0, Math.min(Number((v.hand_sizes || [])[s]) || 0, 500))).fill('?'), 'hidden'));
          }
          add(d, el('div', 'mute', 'city (active cards marked)'));
          const c = add(d, el('div'));
          list(city).forEach((card) => add(c, card && card.id ? cardChip(card.id, card.active ? 'active' : '')
            : el('span', 'chip', JSON.stringify(card))));
          if (v.symbols && v.symbols[s]) { add(d, el('div', 'mute', 'symbols')); add(d, generic(v.symbols[s])); }
        });
        rest(b, v, ['turn', 'to_move', 'actions_left', 'idols', 'stacks', 'cities', 'hands', 'hand', 'hand_backs', 'hand_sizes', 'hand_limits', 'symbols', 'seat']);
      },
      xibalba(v, b) {
        badges(b, v, ['mode', 'round', 'turn', 'max_rounds', 'target', 'current', 'step', 'winner']);
        if (v.ark) {
          const a = el('div', 'tile');
          add(a, el('div', null, v.ark.card));
          add(a, el('div', 'n', 'life ' + v.ark.life + '/' + v.ark.max_life));
          add(a, el('div', 'mute', 'controller: ' + (v.ark.owner >= 0 ? name(v.ark.owner) : 'nobody')));
          box(b, 'the Ark', a);
        }
        const m = el('div');
        Object.keys(v.market || {}).forEach((k) => { const t = add(m, el('div', 'tile')); add(t, el('div', 'mute', k)); add(t, chips(v.market[k])); });
        box(b, 'market', m);
        if (v.dice) box(b, 'dice', generic(v.dice));
        list(v.players).forEach((p, s) => {
          p = p || {};
          const d = add(b, el('div', 'player' + (toPlay(s, v.current) ? ' current' : '')));
          add(d, el('h3', null, name(s) + ' — ' + (p.faction || '') + (toPlay(s, v.current) ? ' — to play' : '')));
          badges(d, p, ['paragon', 'resources', 'level', 'resistance', 'productivity', 'upgraded']);
          if (p.squad) { add(d, el('div', 'mute', 'squad')); add(d, chips(p.squad.cards || [])); }
          list(p.slots).forEach((sl, k) => {
            sl = sl || {};
            add(d, el('div', 'mute', 'base ' + (k + 1) + (sl.open ? '' : ' (closed)')));
            add(d, chips(sl.cards || []));
          });
          rest(d, p, ['faction', 'faction_id', 'paragon', 'resources', 'level', 'resistance', 'productivity', 'upgraded', 'squad', 'slots']);
        });
        if (v.decks) box(b, 'decks', generic(v.decks));
        rest(b, v, ['mode', 'round', 'turn', 'max_rounds', 'target', 'current', 'step', 'winner', 'ark', 'market', 'dice', 'players', 'decks', 'start_player']);
      },
    };

    // Draws view into the element b (emptied first); ended: the game is
    // over, so nobody is marked to play.
    function board(view, b, ended) {
      b.textContent = '';
      over = !!ended;
      if (view === undefined || view === null) { add(b, el('div', 'mute', 'no view')); return; }
      const own = Object.prototype.hasOwnProperty.call(draw, game) && typeof view === 'object' && !Array.isArray(view);
      if (own) draw[game](view, b);
      else add(b, generic(view));
    }
    return { board, name, named, labelNamed, cardChip };
  }

  return { el, add, compact, generic, drawer };
})();
