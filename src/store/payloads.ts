// @spec SPEC-STORE-001

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Episode, SupportRef } from './types.js';

/**
 * Large payloads of episodes (a long query; DEC-054) live outside the journal and the
 * database rows, in a content-addressed folder beside the evidence store: `<git-dir>/ctx/payloads/<aa>/<sha256>`.
 * The episode keeps a short prefix of the text and a `payload` reference naming the hash, so
 * rows stay small and the same text asked twice is stored once.
 */
export const PAYLOAD_MIN_BYTES = 2048;
/** characters of the text kept inline, for listings */
const PREFIX_CHARS = 160;
const HASH = /^[0-9a-f]{64}$/;

/** The payload folder for an evidence folder (`<git-dir>/ctx/evidence` → `<git-dir>/ctx/payloads`). */
export function payloadDir(evidenceDir: string): string {
  return path.join(path.dirname(evidenceDir), 'payloads');
}

function fileOf(dir: string, hash: string): string {
  return path.join(dir, hash.slice(0, 2), hash);
}

/** Store a text by its SHA-256 (idempotent); returns the hash. */
export function putPayload(dir: string, text: string): string {
  // node:crypto only when a payload is stored: recording an episode is on a kept answer's path (DEC-067)
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(text, 'utf8').digest('hex');
  const file = fileOf(dir, hash);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // written aside and renamed: a reader never sees half a payload under its hash
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }
  return hash;
}

/** A stored text, or undefined when it is not there (cleaned, or never stored). */
export function readPayload(dir: string, hash: string): string | undefined {
  if (!HASH.test(hash)) return undefined;
  try {
    return readFileSync(fileOf(dir, hash), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The episode with its large query text moved to the payload folder: the text shortened
 * to a prefix and a `payload` context reference (slot `query.text`) added.
 */
export function offloadPayloads<T extends Omit<Episode, 'id' | 'at'>>(evidenceDir: string, ep: T, minBytes = PAYLOAD_MIN_BYTES): T {
  const text = ep.query.text;
  if (text === undefined || Buffer.byteLength(text, 'utf8') < minBytes) return ep;
  const hash = putPayload(payloadDir(evidenceDir), text);
  const ref: SupportRef = { role: 'context', kind: 'payload', value: hash, grounding: 'loaded', rank: 0, slot: 'query.text' };
  return { ...ep, query: { ...ep.query, text: `${text.slice(0, PREFIX_CHARS)}…` }, refs: [...(ep.refs ?? []), ref] };
}

/**
 * Delete stored payloads no episode references any more; returns the hashes removed. Files
 * younger than `graceMs` stay: a writer stores the payload just before it appends the
 * episode naming it.
 */
export function cleanPayloads(evidenceDir: string, referenced: ReadonlySet<string>, graceMs = 10 * 60_000, now = Date.now()): string[] {
  const dir = payloadDir(evidenceDir);
  const removed: string[] = [];
  let subs: string[];
  try {
    subs = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const sub of subs) {
    const d = path.join(dir, sub);
    if (!statSync(d).isDirectory()) continue;
    for (const name of readdirSync(d)) {
      if (!HASH.test(name) || referenced.has(name)) continue; // temp files of a writer are left to it
      const f = path.join(d, name);
      if (graceMs > 0 && now - statSync(f).mtimeMs < graceMs) continue;
      unlinkSync(f);
      removed.push(name);
    }
    if (!readdirSync(d).length) rmdirSync(d);
  }
  return removed.sort();
}

/**
 * An episode read back with its payloads: the query text whole again (the only field
 * offloaded), or, when a payload was cleaned, the stored prefix and `missing` naming it.
 */
export function withPayloads<T extends { query: { text?: string }; refs?: SupportRef[] }>(evidenceDir: string, ep: T): T & { payloads?: { hash: string; bytes?: number; missing?: boolean }[] } {
  const refs = (ep.refs ?? []).filter((r) => r.kind === 'payload');
  if (!refs.length) return ep;
  const dir = payloadDir(evidenceDir);
  let query = ep.query;
  const payloads = refs.map((r) => {
    const text = readPayload(dir, r.value);
    if (text === undefined) return { hash: r.value, missing: true };
    query = { ...query, text };
    return { hash: r.value, bytes: Buffer.byteLength(text, 'utf8') };
  });
  return { ...ep, query, payloads };
}
