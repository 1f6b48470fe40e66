// @spec SPEC-SEMANTIC-001

/**
 * Positions of every 512th newline in the default word table's word list (as word-table.ts
 * holds it: a newline before the first word and after the last), for the list whose UTF-8
 * bytes have this sha256: a row is then counted from the nearest of them instead of from the
 * top (DEC-037). Checked against the table read before use; another table ignores them.
 * test/semantic/space-state.test.ts computes them from the shipped table and fails, printing
 * the new values, when they differ.
 */
export const WORD_MARKS = {
  sha256: 'b03f9b71c09cc7b2c67bf5d83e0743cc43a19828d3678d6ec05c12c304cf52e2',
  every: 512,
  marks: [0, 3183, 6838, 10710, 14585, 18601, 22635, 26785, 30870, 35055, 39223, 43432, 47661, 51817, 55992, 60139, 64268, 68546, 72785, 76982, 81229, 85430, 89755, 93975, 98089, 102160, 106419, 110606, 114767, 119015, 123317, 127487, 131769, 135934, 140054, 144192, 148388, 152661, 156884, 161205, 165355, 169559, 173824, 178157, 182403, 186642, 190820, 194991, 199202, 203384, 207675, 211808, 216061, 220247, 224477, 228690, 232953, 237217, 241524, 245821, 250142],
} as const;
