// @spec SPEC-RETRIEVE-001

/**
 * A verb and its particle written apart that mean the noun written as one word: "log in" is
 * login, "checked out" is checkout, `setUp` is setup, "times out" is timeout. Read word by
 * word, "log in" asked for logging ("how do users log in" found the record adopting
 * Log4brains, whose text says "decision log", and nothing about sign-in: trials28), "check
 * out" for validation and "roll back" for anything rolled. Only the pairs below are joined:
 * each compound is the noun teams write, and the verb alone names something else.
 * @decision DEC-126
 */
const PAIRS: Record<string, Record<string, string>> = {
  log: { in: 'login', on: 'login', out: 'logout', off: 'logout' },
  sign: { in: 'signin', up: 'signup', out: 'signout', off: 'signoff' },
  check: { out: 'checkout' },
  set: { up: 'setup' },
  roll: { back: 'rollback', out: 'rollout' },
  back: { up: 'backup' },
  clean: { up: 'cleanup' },
  look: { up: 'lookup' },
  shut: { down: 'shutdown' },
  start: { up: 'startup' },
  tear: { down: 'teardown' },
  time: { out: 'timeout' },
  fall: { back: 'fallback' },
  fail: { over: 'failover' },
  opt: { in: 'optin', out: 'optout' },
  plug: { in: 'plugin' },
};

/** A verb's written forms → the verb: "logged", "logging", "logs" → log. */
const FORMS = new Map<string, string>();
for (const v of Object.keys(PAIRS)) {
  // logged, setting (a consonant doubled after a short vowel); timed, timing (the e dropped)
  const root = /[^aeiou][aeiou][bdglnprt]$/.test(v) ? v + v.slice(-1) : v.replace(/e$/, '');
  for (const f of [v, `${v}s`, `${root}ed`, `${root}ing`]) FORMS.set(f, v);
}
for (const [f, v] of [['fell', 'fall'], ['fallen', 'fall'], ['tore', 'tear'], ['torn', 'tear']] as const) FORMS.set(f, v);

/**
 * Lower-case words in order, with each verb-and-particle pair of the table read as its
 * compound. `known`, when given, says whether a compound may be used (a word table without
 * it keeps the two words).
 */
export function joinPhrasal(words: readonly string[], known?: (w: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const verb = FORMS.get(w);
    const next = words[i + 1];
    const compound = verb !== undefined && next !== undefined ? PAIRS[verb]![next] : undefined;
    if (compound !== undefined && (!known || known(compound))) {
      out.push(compound);
      i++;
    } else out.push(w);
  }
  return out;
}
