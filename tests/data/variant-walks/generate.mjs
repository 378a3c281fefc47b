// Writes the random walks of tests/data/variant-walks with chessops (npm, Lichess's TypeScript
// rules library): one line per walk, "<start FEN>;<moves played>;<count>:<hash> ..." with, for
// every position of the walk, the number of legal moves and FNV-1a (32 bits, hex) of their sorted
// UCI texts joined by spaces (castling king-to-rook, drops "N@f3"). Run outside the repository,
// where chessops is installed (npm install chessops):
//   node generate.mjs RULES POSITIONS SEED START_FEN... > VARIANT.txt
import { defaultPosition, setupPosition } from 'chessops/variant';
import { parseFen, makeFen } from 'chessops/fen';
import { makeUci } from 'chessops/util';
import { SquareSet } from 'chessops/squareSet';

const [rules, target, seedArg, ...starts] = process.argv.slice(2);
let seed = Number(seedArg) >>> 0;
function rand() { // mulberry32
  seed = (seed + 0x6D2B79F5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16).padStart(8, '0');
}
const ROLES = ['pawn', 'knight', 'bishop', 'rook', 'queen'];
function legalUcis(pos) {
  const ctx = pos.ctx();
  const out = [];
  const backranks = SquareSet.backranks();
  const promos = ['queen', 'rook', 'bishop', 'knight'].concat(pos.rules === 'antichess' ? ['king'] : []);
  for (const [from, dests] of pos.allDests(ctx)) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (piece.role === 'pawn' && backranks.has(to)) for (const p of promos) out.push(makeUci({ from, to, promotion: p }));
      else out.push(makeUci({ from, to }));
    }
  }
  if (pos.rules === 'crazyhouse' && pos.pockets && !ctx.variantEnd) {
    const drops = pos.dropDests(ctx);
    for (const role of ROLES) {
      if (pos.pockets[pos.turn][role] <= 0) continue;
      for (const to of drops) {
        if (role === 'pawn' && backranks.has(to)) continue;
        out.push(makeUci({ role, to }));
      }
    }
  }
  return out.sort();
}
function parseUci(text) {
  if (text[1] === '@') return { role: { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen' }[text[0]], to: sq(text.slice(2)) };
  const m = { from: sq(text.slice(0, 2)), to: sq(text.slice(2, 4)) };
  if (text.length > 4) m.promotion = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', k: 'king' }[text[4]];
  return m;
}
function sq(t) { return (t.charCodeAt(0) - 97) + 8 * (t.charCodeAt(1) - 49); }

const startPositions = starts.length ? starts.map(f => setupPosition(rules, parseFen(f).unwrap()).unwrap()) : [defaultPosition(rules)];
let positions = 0, walk = 0;
const maxPlies = 120;
while (positions < Number(target)) {
  const pos = startPositions[walk % startPositions.length].clone();
  walk++;
  const startFen = makeFen(pos.toSetup());
  const moves = [], stats = [];
  for (let ply = 0; ply <= maxPlies; ply++) {
    const legal = legalUcis(pos);
    stats.push(`${legal.length}:${fnv1a(legal.join(' '))}`);
    positions++;
    if (!legal.length || ply === maxPlies) break;
    const choice = legal[Math.floor(rand() * legal.length)];
    moves.push(choice);
    pos.play(parseUci(choice));
  }
  console.log(`${startFen};${moves.join(' ')};${stats.join(' ')}`);
}
