/**
 * The o200k BPE encoder with compact tables. js-tiktoken's `Tiktoken` keeps a Map keyed by
 * comma-joined byte lists plus a Uint8Array per token for decoding: ~150 MiB of a worker's RSS.
 * Estimates only encode, so this keeps one Map keyed by the token's bytes as a one-byte-per-char
 * string (~15 MiB) and runs the same algorithm (same pattern, same merge order, same handling of
 * special-token text as ordinary text), so the ids are identical; tests compare them.
 */

export interface BpeRanks {
  pat_str: string;
  /** Lines of `! <offset> <base64 token> <base64 token> …` as in js-tiktoken's rank files. */
  bpe_ranks: string;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < B64.length; i++) t[B64.charCodeAt(i)] = i;
  return t;
})();

/** Base64 → a string with one char (0–255) per byte. */
function base64ToByteString(s: string): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const v = B64_INDEX[s.charCodeAt(i)];
    if (v < 0) continue; // '=' padding
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

const utf8 = new TextEncoder();

function bytesToByteString(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

export class CompactBpe {
  private readonly ranks = new Map<string, number>();
  private readonly pattern: RegExp;

  constructor(data: BpeRanks) {
    this.pattern = new RegExp(data.pat_str, 'ug');
    for (const line of data.bpe_ranks.split('\n')) {
      if (!line) continue;
      const parts = line.split(' ');
      const offset = Number.parseInt(parts[1], 10);
      // later lines win for a repeated token, as in js-tiktoken (its object keeps the last rank)
      for (let i = 2; i < parts.length; i++) this.ranks.set(base64ToByteString(parts[i]), offset + i - 2);
    }
  }

  get size(): number {
    return this.ranks.size;
  }

  encode(text: string): number[] {
    const out: number[] = [];
    for (const m of text.matchAll(this.pattern)) {
      const piece = bytesToByteString(utf8.encode(m[0]));
      const whole = this.ranks.get(piece);
      if (whole !== undefined) out.push(whole);
      else this.mergeInto(piece, out);
    }
    return out;
  }

  /** js-tiktoken's bytePairMerge + bytePairEncode on a byte string. */
  private mergeInto(piece: string, out: number[]): void {
    if (piece.length === 1) {
      const r = this.ranks.get(piece);
      if (r !== undefined) out.push(r);
      return;
    }
    const starts: number[] = [];
    for (let i = 0; i <= piece.length; i++) starts.push(i);
    // parts are [starts[k], starts[k + 1])
    while (starts.length > 2) {
      let minRank = -1;
      let minAt = -1;
      for (let i = 0; i < starts.length - 2; i++) {
        const r = this.ranks.get(piece.slice(starts[i], starts[i + 2]));
        if (r === undefined) continue;
        if (minAt < 0 || r < minRank) {
          minRank = r;
          minAt = i;
        }
      }
      if (minAt < 0) break;
      starts.splice(minAt + 1, 1);
    }
    for (let k = 0; k + 1 < starts.length; k++) {
      const r = this.ranks.get(piece.slice(starts[k], starts[k + 1]));
      if (r !== undefined) out.push(r);
    }
  }
}
