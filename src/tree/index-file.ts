// @spec SPEC-SCALE-001

/**
 * The git index file (`.git/index`) read in-process: path, mode, staged blob id and the stat
 * data git recorded for each entry. A one-place question compares a few files' stat data
 * with it instead of spawning `git ls-files` and `git status` (DEC-025, DEC-045). Only what can be
 * read safely is read: versions 2 to 4, sha1 object ids, no split index (`link`), no
 * sparse index (`sdir`); anything else is `undefined` and git answers instead.
 */
export interface GitIndexEntry {
  readonly path: string;
  /** byte offset of the entry in the index file (its fields are read on demand) */
  readonly off: number;
  /** extended flags (v3+), 0 when absent */
  readonly ext: number;
}

/**
 * Entry offsets are found in one pass over the file; a path is decoded only when a lookup
 * reaches it (binary search in git's byte order), so a 100,000-entry index costs a few
 * milliseconds, not 100,000 strings.
 */
export class GitIndexFile {
  /** the index file's own modification time in nanoseconds (racily clean entries are compared to it) */
  readonly mtimeNs: bigint;
  private all: GitIndexEntry[] | undefined;
  constructor(
    private readonly buf: Buffer,
    /** per entry: start of the entry, start of its name, length of its name, extended flags */
    private readonly starts: Uint32Array,
    private readonly names: Uint32Array,
    private readonly lens: Uint32Array,
    private readonly exts: Uint16Array,
    mtimeNs: bigint,
    /** names decoded already (a v4 index is prefix-compressed: all of them) */
    private readonly decoded?: string[],
  ) {
    this.mtimeNs = mtimeNs;
  }
  get size(): number {
    return this.starts.length;
  }
  /** the file's trailing checksum (git's SHA-1 of its content; zeros when git skipped it, index.skipHash) */
  get checksum(): string {
    return this.buf.toString('hex', this.buf.length - 20);
  }
  private entry(i: number): GitIndexEntry {
    return { path: this.decoded?.[i] ?? this.buf.toString('utf8', this.names[i]!, this.names[i]! + this.lens[i]!), off: this.starts[i]!, ext: this.exts[i]! };
  }
  /** Every entry, in index order (decodes every path: for tests and small indexes). */
  get entries(): readonly GitIndexEntry[] {
    this.all ??= Array.from({ length: this.size }, (_, i) => this.entry(i));
    return this.all;
  }
  private u32(e: GitIndexEntry, field: number): number {
    return be32(this.buf, e.off + field * 4);
  }
  /** mode as git prints it (`100644`) */
  mode(e: GitIndexEntry): string {
    return this.u32(e, 6).toString(8).padStart(6, '0');
  }
  blob(e: GitIndexEntry): string {
    return this.buf.toString('hex', e.off + 40, e.off + 60);
  }
  /** stage (0 normally, 1-3 during a merge conflict) */
  stage(e: GitIndexEntry): number {
    return (be16(this.buf, e.off + 60) >> 12) & 3;
  }
  /** assume-unchanged, skip-worktree or intent-to-add: git does not compare such an entry with the disk as usual */
  special(e: GitIndexEntry): boolean {
    return (be16(this.buf, e.off + 60) & 0x8000) !== 0 || (e.ext & 0x6000) !== 0;
  }
  /** the stat data git recorded: [ctime s, ctime ns, mtime s, mtime ns, dev, ino, mode, uid, gid, size] */
  stat(e: GitIndexEntry): number[] {
    const out: number[] = [];
    for (let i = 0; i < 10; i++) out.push(be32(this.buf, e.off + i * 4));
    return out;
  }
  /**
   * Whether a file's lstat (bigint) equals the stat data git recorded for the entry (size,
   * mtime and ctime to the nanosecond, inode) and the file is older than the index itself
   * (git's racy-clean rule: written in the same instant as the index, its stat data proves
   * nothing). The executable bit is the caller's to compare (core.fileMode).
   */
  statMatches(e: GitIndexEntry, st: { size: bigint; mtimeNs: bigint; ctimeNs: bigint; ino: bigint }): boolean {
    const b = this.buf;
    const o = e.off;
    // the recorded times rebuilt as nanoseconds (a multiplication, not a BigInt division per
    // field: this runs once per record file, before the JIT has warmed up). Seconds past 2106 or
    // before 1970, which git keeps modulo 2^32, never match: the file is then read, as changed.
    return (
      Number(st.size & 0xffffffffn) === be32(b, o + 36) &&
      Number(st.ino & 0xffffffffn) === be32(b, o + 20) &&
      st.mtimeNs === BigInt(be32(b, o + 8)) * NS_PER_S + BigInt(be32(b, o + 12)) &&
      st.ctimeNs === BigInt(be32(b, o)) * NS_PER_S + BigInt(be32(b, o + 4)) &&
      st.mtimeNs < this.mtimeNs
    );
  }
  /** compare entry i's name with `key` in byte order (git's order) */
  private cmp(i: number, key: Buffer): number {
    if (this.decoded) return Buffer.compare(Buffer.from(this.decoded[i]!, 'utf8'), key);
    // byte by byte: Buffer#compare's argument checks cost more than the few bytes compared
    const b = this.buf;
    const at = this.names[i]!;
    const len = this.lens[i]!;
    const n = len < key.length ? len : key.length;
    for (let j = 0; j < n; j++) {
      const d = b[at + j]! - key[j]!;
      if (d !== 0) return d;
    }
    return len - key.length;
  }
  /** The first entry whose name is not below `key` in byte order. */
  private lowerBound(key: Buffer): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cmp(mid, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  private lastSpan: { p: string; span: readonly [number, number, number, number] } | undefined;
  /**
   * Where `p` and the directory `p` are in the index: the entries named `p` (several stages in a
   * conflict) from [0] to [1], then those below `p/` from [2] to [3]; the names from `p/` up to
   * `p0` ('0' follows '/'); `p.x` and `p-y` sort between the two and are not below `p`. The last
   * one is remembered: countUnder(p) then under(p) search once.
   */
  private span(p: string): readonly [number, number, number, number] {
    if (this.lastSpan?.p === p) return this.lastSpan.span;
    const exact = Buffer.from(p, 'utf8');
    const at = this.lowerBound(exact);
    let end = at;
    while (end < this.size && this.cmp(end, exact) === 0) end++;
    const span = [at, end, this.lowerBound(Buffer.from(p + '/', 'utf8')), this.lowerBound(Buffer.from(p + '0', 'utf8'))] as const;
    this.lastSpan = { p, span };
    return span;
  }
  /** How many entries `under(p)` gives, without decoding their paths (binary searches). */
  countUnder(p: string): number {
    const [a, b, c, d] = this.span(p);
    return b - a + (d - c);
  }
  /** The entries at `p` or below the directory `p` (never a pattern), in index order. */
  under(p: string): GitIndexEntry[] {
    const [a, b, c, d] = this.span(p);
    const out: GitIndexEntry[] = [];
    for (let i = a; i < b; i++) out.push(this.entry(i));
    for (let i = c; i < d; i++) out.push(this.entry(i));
    return out;
  }
}

const NS_PER_S = 1_000_000_000n;

// plain byte arithmetic: this runs once per process, before the JIT has warmed up to Buffer's readers
const be16 = (b: Buffer, o: number): number => (b[o]! << 8) | b[o + 1]!;
const be32 = (b: Buffer, o: number): number => b[o]! * 0x1000000 + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);

/** Parse an index file's bytes; undefined for anything this reader does not handle. */
export function parseGitIndex(buf: Buffer, mtimeNs: bigint): GitIndexFile | undefined {
  if (buf.length < 32 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const end = buf.length - 20;
  if (count > end / 62) return undefined;
  const starts = new Uint32Array(count);
  const names = new Uint32Array(count);
  const lens = new Uint32Array(count);
  const exts = new Uint16Array(count);
  const decoded: string[] | undefined = version === 4 ? [] : undefined;
  let off = 12;
  let prev: Buffer = Buffer.alloc(0);
  for (let n = 0; n < count; n++) {
    if (off + 62 > end) return undefined;
    starts[n] = off;
    const flags = be16(buf, off + 60);
    let p = off + 62;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      exts[n] = be16(buf, p);
      p += 2;
    }
    if (decoded) {
      // prefix compression: drop N bytes from the previous name, append a NUL-terminated suffix
      let byte = buf[p++]!;
      let drop = byte & 127;
      while (byte & 128) {
        byte = buf[p++]!;
        drop = ((drop + 1) << 7) | (byte & 127);
      }
      const nul = buf.indexOf(0, p);
      if (nul < 0 || nul > end || drop > prev.length) return undefined;
      const name: Buffer = Buffer.concat([prev.subarray(0, prev.length - drop), buf.subarray(p, nul)]);
      decoded.push(name.toString('utf8'));
      prev = name;
      off = nul + 1;
    } else {
      let len = flags & 0xfff;
      if (len === 0xfff) {
        const nul = buf.indexOf(0, p);
        if (nul < 0) return undefined;
        len = nul - p;
      }
      names[n] = p;
      lens[n] = len;
      // entries are padded with 1–8 NULs to a multiple of 8 bytes
      off += ((p - off + len + 8) & ~7) >>> 0;
    }
    if (off > end) return undefined;
  }
  // extensions: a split index keeps entries elsewhere, a sparse index folds directories
  while (off + 8 <= end) {
    const sig = buf.toString('latin1', off, off + 4);
    if (sig === 'link' || sig === 'sdir') return undefined;
    off += 8 + buf.readUInt32BE(off + 4);
  }
  return new GitIndexFile(buf, starts, names, lens, exts, mtimeNs, decoded);
}
