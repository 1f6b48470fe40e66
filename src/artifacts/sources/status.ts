// @spec SPEC-SOURCES-001

import type { Config } from '../../config.js';

/**
 * Words real decision records use for their status, mapped onto the default vocabularies.
 * Keys are lower case; `status_map:` in config.yaml adds to and overrides them.
 */
export const DEFAULT_STATUS_MAP: Readonly<Record<string, string>> = {
  decided: 'accepted',
  adopted: 'accepted',
  approved: 'accepted',
  agreed: 'accepted',
  implemented: 'accepted',
  'partially implemented': 'accepted',
  // the rest of it stands (alphagov/govuk-aws's "Partly superseded") @decision DEC-103
  'partly superseded': 'accepted',
  'partially superseded': 'accepted',
  'partly superseded by': 'accepted',
  'partially superseded by': 'accepted',
  done: 'accepted',
  // a team that decides by pull request: the record merged into the main branch is in force
  // (SocialGouv/pass-emploi-api's "Statut: merg\u00e9", trials32) @decision DEC-136
  merged: 'accepted',
  'merg\u00e9': 'accepted',
  'merg\u00e9e': 'accepted',
  complete: 'accepted',
  completed: 'accepted',
  active: 'accepted',
  current: 'accepted',
  // a record that describes what stands rather than proposing a change (oasis-core's "Informative", PEP's "Informational")
  informative: 'accepted',
  informational: 'accepted',
  draft: 'proposed',
  open: 'proposed',
  'in review': 'proposed',
  'in progress': 'proposed',
  'in-progress': 'proposed',
  // run together, as an enum writes it (cloudfoundry/bosh-bootloader's "Inprogress")
  inprogress: 'proposed',
  // being tried before the team settles it (semantic-kernel's agents records)
  experimental: 'proposed',
  'under discussion': 'proposed',
  'under review': 'proposed',
  pending: 'proposed',
  proposal: 'proposed',
  wip: 'proposed',
  // written before the team settled it ("\ud83e\udd14 Incomplete", ministryofjustice/cloud-platform)
  incomplete: 'proposed',
  rfc: 'proposed',
  obsolete: 'deprecated',
  // SAP/cloud-sdk-js's "**outdated**", kept in an outdated/ folder @decision DEC-104
  outdated: 'deprecated',
  retired: 'deprecated',
  deprecated: 'deprecated',
  // undone after it was accepted ("Reverted by discussion #1198", home-assistant/architecture)
  reverted: 'deprecated',
  revoked: 'deprecated',
  replaced: 'superseded',
  'replaced by': 'superseded',
  'superseded by': 'superseded',
  // a team's template word for it ("Exceeded by 2025-10-08-...", Altinn/altinn-studio) @decision DEC-129
  exceeded: 'superseded',
  'exceeded by': 'superseded',
  // a status line that names only the record this one replaces ("Replaces 2025-09-04-..."): this one stands
  replaces: 'accepted',
  supersedes: 'accepted',
  // Open edX's records: decided, to be revisited as the team learns (openedx/openedx-events)
  provisional: 'accepted',
  // French, Spanish, Portuguese, German and Dutch records (MTES-MCT/dialog: "ACCEPT\u00c9",
  // "BROUILLON"); lower case as normalizeStatus leaves them @decision DEC-104
  'accept\u00e9': 'accepted',
  'accept\u00e9e': 'accepted',
  'valid\u00e9': 'accepted',
  'valid\u00e9e': 'accepted',
  'adopt\u00e9': 'accepted',
  'adopt\u00e9e': 'accepted',
  aceptado: 'accepted',
  aceptada: 'accepted',
  aceito: 'accepted',
  aceita: 'accepted',
  akzeptiert: 'accepted',
  angenommen: 'accepted',
  geaccepteerd: 'accepted',
  brouillon: 'proposed',
  'propos\u00e9': 'proposed',
  'propos\u00e9e': 'proposed',
  'en cours': 'proposed',
  propuesto: 'proposed',
  propuesta: 'proposed',
  borrador: 'proposed',
  proposto: 'proposed',
  proposta: 'proposed',
  rascunho: 'proposed',
  vorgeschlagen: 'proposed',
  entwurf: 'proposed',
  voorgesteld: 'proposed',
  'd\u00e9pr\u00e9ci\u00e9': 'deprecated',
  'd\u00e9pr\u00e9ci\u00e9e': 'deprecated',
  'obsol\u00e8te': 'deprecated',
  obsoleto: 'deprecated',
  obsoleta: 'deprecated',
  veraltet: 'deprecated',
  verouderd: 'deprecated',
  'remplac\u00e9': 'superseded',
  'remplac\u00e9e': 'superseded',
  'remplac\u00e9 par': 'superseded',
  'remplac\u00e9e par': 'superseded',
  reemplazado: 'superseded',
  'reemplazado por': 'superseded',
  reemplazada: 'superseded',
  'reemplazada por': 'superseded',
  sustituido: 'superseded',
  'sustituido por': 'superseded',
  'substitu\u00eddo': 'superseded',
  'substitu\u00eddo por': 'superseded',
  'substitu\u00edda': 'superseded',
  'substitu\u00edda por': 'superseded',
  ersetzt: 'superseded',
  'ersetzt durch': 'superseded',
  vervangen: 'superseded',
  'vervangen door': 'superseded',
  'rejet\u00e9': 'rejected',
  'rejet\u00e9e': 'rejected',
  'refus\u00e9': 'rejected',
  'refus\u00e9e': 'rejected',
  rechazado: 'rejected',
  rechazada: 'rejected',
  rejeitado: 'rejected',
  rejeitada: 'rejected',
  abgelehnt: 'rejected',
  afgewezen: 'rejected',
  declined: 'rejected',
  withdrawn: 'rejected',
  abandoned: 'rejected',
};

/**
 * A label or a section naming the status, in the languages records are written in: English
 * "Status"/"State", French "Statut"/"\u00c9tat", Spanish and Portuguese "Estado", Italian "Stato"
 * (MTES-MCT/dialog writes "Statut : Accept\u00e9"). German and Dutch write "Status". @decision DEC-104
 */
export const STATUS_NAME = /^(?:status|state|statut|\u00e9tat|etat|estado|stato)$/i;

/**
 * The words of a status as written, without decoration: emoji and symbols, markdown emphasis,
 * a trailing "(…)", a date ("Accepted on 2020-01-02", "Accepted 2020-01-02"), and what
 * follows "by"/"in" ("Superseded by ADR-0041" → "superseded by"). Lower case.
 */
export function normalizeStatus(text: string): string {
  let s = text.toLowerCase();
  s = s.replace(/[*_`~]+/g, ' ').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  s = s.replace(/\(.*$/, ' ');
  // after a status word only: "on hold" is a status, not "on" and a date
  s = s.replace(/^(.*?\S)\s+(by|with|in favou?r of|on|since|as of|par|por|durch|door)\b.*$/, '$1 $2');
  s = s.replace(/\d{4}-\d{2}-\d{2}.*$/, ' ');
  // everything that is not a letter, digit, space or hyphen (emoji, ✅, punctuation)
  s = s.replace(/[^\p{L}\p{N}\s-]+/gu, ' ');
  s = s.replace(/\s+/g, ' ').trim();
  s = s.replace(/ (on|since|as of|with)$/, '').replace(/^-+|-+$/g, '').trim();
  return s;
}

export interface MappedStatus {
  /** a status of the type's vocabulary, or the text as written when unmappable */
  status: string;
  /** the text as written, when it differs from `status` */
  statusText?: string;
  /** true when the text maps onto nothing in the vocabulary */
  unmapped: boolean;
  /** the lower-case key a `status_map:` entry needs (for messages) */
  key: string;
}

/**
 * Map a status as written onto a type's vocabulary, case-insensitively, through the
 * configured table over the defaults. A type with an empty vocabulary takes any status.
 */
export function mapStatus(config: Config, type: string, text: string): MappedStatus {
  const vocab = config.types[type]?.statuses ?? [];
  const trimmed = text.trim();
  if (!vocab.length || vocab.includes(trimmed)) return { status: trimmed, unmapped: false, key: trimmed.toLowerCase() };
  const lower = trimmed.toLowerCase();
  if (vocab.includes(lower) && config.status_map[lower] === undefined) return { status: lower, statusText: trimmed, unmapped: false, key: lower };
  const key = normalizeStatus(trimmed);
  const hit = (s: string | undefined): MappedStatus | undefined => (s !== undefined && vocab.includes(s) ? { status: s, statusText: s === trimmed ? undefined : trimmed, unmapped: false, key } : undefined);
  return (
    hit(config.status_map[lower]) ??
    hit(config.status_map[key]) ??
    hit(vocab.includes(lower) ? lower : undefined) ??
    hit(vocab.includes(key) ? key : undefined) ??
    hit(DEFAULT_STATUS_MAP[lower]) ??
    hit(DEFAULT_STATUS_MAP[key]) ??
    // "accepted and implemented", "superseded by 12": the first word decides when it is a status
    hit(firstWordStatus(key, vocab, config.status_map)) ?? { status: trimmed, unmapped: true, key: key || lower }
  );
}

function firstWordStatus(key: string, vocab: string[], map: Record<string, string>): string | undefined {
  const w = key.split(' ')[0];
  if (!w) return undefined;
  if (vocab.includes(w)) return w;
  return map[w] ?? DEFAULT_STATUS_MAP[w];
}

/** A date as records write it: 01/03/2021, 2021-03-01, 1.3.2021, 2021/03/01. */
const DATE = String.raw`\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}`;
/** "Current status 01/03/2021:", "Status (2021-03-01):", "Status:" — a label naming the status, perhaps dated. */
const STATUS_LABEL = new RegExp(String.raw`^(?:(?:current|decision|adr)\s+)?status\s*(\(?(?:as\s+of\s+|on\s+)?${DATE}\)?)?\s*[:\-\u2013\u2014]\s*`, 'i');
const LEADING_DATE = new RegExp(String.raw`^\(?${DATE}\)?\s*[:\-\u2013\u2014,]?\s*`);
/** Words a status phrase has at most once its decoration is gone ("superseded by", "partially implemented"). */
const STATUS_WORDS_MAX = 3;

/**
 * The status a status line states, or undefined when it states none. A line led by a date or
 * by a dated label ("01/03/2021: Accepted", "Current status 01/03/2021: Removed from AMP
 * following proof of concept, next steps TBD") is a note about the record's history: what
 * follows the date is its status only when it is a status word or a short phrase — the first
 * reads "Accepted", the second none (it was read "Current …", and "current" maps to accepted).
 * Any other line is returned as written: the status vocabulary judges it (`mapStatus`).
 */
export function statusOfLine(text: string): string | undefined {
  let s = text.trim();
  let led = false;
  const label = STATUS_LABEL.exec(s);
  if (label && (label[1] || /^(?:current|decision|adr)\s/i.test(s))) {
    s = s.slice(label[0].length);
    led = true;
  }
  const date = LEADING_DATE.exec(s);
  if (date && date[0].length < s.length) {
    s = s.slice(date[0].length);
    led = true;
  }
  if (!led) return text;
  const words = normalizeStatus(s).split(' ').filter(Boolean).length;
  return words > 0 && words <= STATUS_WORDS_MAX ? s.trim() : undefined;
}

/** True when a metadata line names the status with a date in its label ("- Status 01/03/2021: Accepted"), which the plain `Key: value` reading misses. */
export function isDatedStatusLabel(text: string): boolean {
  const m = STATUS_LABEL.exec(text.trim());
  return !!m && !!m[1];
}

/** A badge linked elsewhere ("[![Generic badge](https://badgen.net/badge/ADR/approved/green/)](README.md)"), then a bare image. */
const LINKED_IMAGE = /\[!\[([^\]]*)\]\(([^)]*)\)\]\([^)]*\)/g;
const IMAGE = /!\[([^\]]*)\]\(([^)]*)\)/g;

/**
 * The words an image stands for in a metadata line: a status badge shows its status in its
 * address (badgen's "/badge/ADR/approved/green", shields.io's "/badge/status-accepted-green" or
 * "?message=accepted"), which its alt text ("Generic badge") often does not; any other image
 * reads as its alt text. uktrade/trade-remedies-api's records state their status only so.
 * @decision DEC-104
 */
export function imageText(text: string): string {
  if (!text.includes('![')) return text;
  const read = (_m: string, alt: string, url: string): string => badgeMessage(url.trim().split(/\s+/)[0]!.replace(/^<|>$/g, '')) ?? alt;
  return text.replace(LINKED_IMAGE, read).replace(IMAGE, read);
}

/** The message of a badge image's address, or undefined when the address is no badge. */
export function badgeMessage(url: string): string | undefined {
  const query = /[?&]message=([^&#]+)/.exec(url);
  if (query) return decodeBadge(query[1]!.replace(/\+/g, ' '));
  const m = /\/badge\/([^?#]+)/.exec(url);
  if (!m) return undefined;
  const segs = m[1]!.replace(/\.(?:svg|png)$/i, '').split('/').filter(Boolean);
  // badgen: subject/status/colour
  if (segs.length >= 2) return decodeBadge(segs[1]!);
  if (!segs.length) return undefined;
  // shields.io: label-message-colour or message-colour, "--" a dash and "_" a space
  const parts = segs[0]!.split(/(?<!-)-(?!-)/).map((p) => p.replace(/--/g, '-'));
  return decodeBadge(parts.length >= 3 ? parts[1]! : parts[0]!);
}

function decodeBadge(s: string): string {
  let out = s.replace(/__?/g, (m) => (m === '__' ? '_' : ' '));
  try {
    out = decodeURIComponent(out);
  } catch {
    // a stray "%" stays as written
  }
  return out.trim();
}
