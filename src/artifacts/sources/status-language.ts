// @spec SPEC-SOURCES-001

// @decision DEC-107
/**
 * A status written into a record in the record's own language (MTES-MCT/dialog writes
 * "Statut : ACCEPTÉ"): `deprecate` and `supersede` write "DÉPRÉCIÉ" and "remplacé par […]"
 * there, not English. The languages and words are those the reader knows (status.ts, DEC-104);
 * the record's language is told by the status word it had, and so is its grammatical gender
 * ("acceptée" → "dépréciée", "aceptada" → "obsoleta").
 */
type Lang = 'fr' | 'es' | 'pt' | 'de' | 'nl';
type Status = 'accepted' | 'proposed' | 'deprecated' | 'superseded' | 'rejected';

/** Each language's status words: [masculine, feminine] where the language inflects them. */
const WORDS: Record<Lang, Record<Status, readonly [string, string?]>> = {
  fr: { accepted: ['accept\u00e9', 'accept\u00e9e'], proposed: ['propos\u00e9', 'propos\u00e9e'], deprecated: ['d\u00e9pr\u00e9ci\u00e9', 'd\u00e9pr\u00e9ci\u00e9e'], superseded: ['remplac\u00e9', 'remplac\u00e9e'], rejected: ['rejet\u00e9', 'rejet\u00e9e'] },
  es: { accepted: ['aceptado', 'aceptada'], proposed: ['propuesto', 'propuesta'], deprecated: ['obsoleto', 'obsoleta'], superseded: ['reemplazado', 'reemplazada'], rejected: ['rechazado', 'rechazada'] },
  pt: { accepted: ['aceito', 'aceita'], proposed: ['proposto', 'proposta'], deprecated: ['obsoleto', 'obsoleta'], superseded: ['substitu\u00eddo', 'substitu\u00edda'], rejected: ['rejeitado', 'rejeitada'] },
  de: { accepted: ['akzeptiert'], proposed: ['vorgeschlagen'], deprecated: ['veraltet'], superseded: ['ersetzt'], rejected: ['abgelehnt'] },
  nl: { accepted: ['geaccepteerd'], proposed: ['voorgesteld'], deprecated: ['verouderd'], superseded: ['vervangen'], rejected: ['afgewezen'] },
};
/** "superseded by" in each language. */
const BY: Record<Lang, string> = { fr: 'par', es: 'por', pt: 'por', de: 'durch', nl: 'door' };
/** Other words that tell a record's language (drafts, synonyms the reader maps). */
const OTHER: Record<string, Lang> = { brouillon: 'fr', 'en cours': 'fr', 'valid\u00e9': 'fr', 'valid\u00e9e': 'fr', 'adopt\u00e9': 'fr', 'adopt\u00e9e': 'fr', 'refus\u00e9': 'fr', 'refus\u00e9e': 'fr', 'obsol\u00e8te': 'fr', borrador: 'es', sustituido: 'es', rascunho: 'pt', entwurf: 'de', angenommen: 'de' };

const LANG_OF = new Map<string, { lang: Lang; feminine: boolean }>();
for (const [lang, table] of Object.entries(WORDS) as [Lang, Record<Status, readonly [string, string?]>][]) {
  for (const [m, f] of Object.values(table)) {
    if (!LANG_OF.has(m)) LANG_OF.set(m, { lang, feminine: false });
    if (f) LANG_OF.set(f, { lang, feminine: true });
  }
}
for (const [w, lang] of Object.entries(OTHER)) if (!LANG_OF.has(w)) LANG_OF.set(w, { lang, feminine: /e\u0301?e$|\u00e9e$/.test(w) });

/**
 * `next` (an English status, with what follows it: " by […]", " (reason)") in the language of
 * `was`, the status word the record wrote; `next` itself when `was` is English or unknown.
 */
export function inRecordLanguage(was: string, next: string): string {
  const w = was.normalize('NFC').toLowerCase().trim();
  const known = LANG_OF.get(w) ?? LANG_OF.get(w.split(/\s+/)[0]!);
  const m = /^(accepted|proposed|deprecated|superseded|rejected)\b( by\b)?/i.exec(next);
  if (!known || !m) return next;
  const forms = WORDS[known.lang][m[1]!.toLowerCase() as Status];
  const word = (known.feminine && forms[1]) || forms[0];
  return word + (m[2] ? ` ${BY[known.lang]}` : '') + next.slice(m[0].length);
}

/** The characters of a mark before a status word: emoji and symbols (`✅`, `🤔`, `⌛️`), with their joiners and variation selectors. */
export const MARK_CHARS = '[\\p{Extended_Pictographic}\\p{So}\\uFE0F\\u200D]';
/** A mark before a status word, and the word. */
const MARK = new RegExp(`^(${MARK_CHARS}+)\\s*(\\p{L}+)`, 'u');

/**
 * The mark the folder writes before a status word (ministryofjustice/cloud-platform writes
 * "✅ Accepted", "🤔 Proposed"), when most of the folder's records written with that status
 * word carry the same mark, and at least two do; else undefined. `written` are the statuses
 * the folder's records wrote (Artifact.statusText).
 */
export function folderMark(status: string, written: readonly (string | undefined)[]): string | undefined {
  const word = /^\p{L}+/u.exec(status.trim())?.[0]?.toLowerCase();
  if (!word) return undefined;
  const marks = new Map<string, number>();
  let same = 0;
  for (const w of written) {
    const t = w?.trim() ?? '';
    const m = MARK.exec(t);
    const first = (m ? m[2] : /^\p{L}+/u.exec(t)?.[0])?.toLowerCase();
    if (first !== word) continue;
    same++;
    if (m) marks.set(m[1]!, (marks.get(m[1]!) ?? 0) + 1);
  }
  const [best] = [...marks].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= 2 && best[1] * 2 > same ? best[0] : undefined;
}

/** `status` with the mark the folder writes before that word (folderMark); a mark already given stays as given. */
export function withFolderMark(status: string, written: readonly (string | undefined)[]): string {
  if (MARK.test(status.trim())) return status;
  const mark = folderMark(status, written);
  return mark ? `${mark} ${status.trim()}` : status;
}
