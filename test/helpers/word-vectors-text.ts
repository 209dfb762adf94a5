/**
 * Word vectors files of our own, in GloVe's text format, for the ranker's tests: filler
 * rows first (where a real file lists function words, which the ranker's mean vectors
 * leave out), then the topic words given, each topic along its own axis.
 */

/** Each vector's dimensions. */
export const VECTOR_DIMS = 6;

/** Made-up words (neither WordNet nor a stemmer links them): a question's and, near each, its answer's; then others far from both. */
export const TOPIC_VECTORS: Record<string, number[]> = {
  zorblat: [1, 0.1, 0, 0, 0, 0],
  quimbles: [0.95, 0.15, 0, 0, 0.05, 0],
  snorf: [0, 1, 0, 0, 0, 0],
  grelp: [0.05, 0.97, 0, 0.05, 0, 0],
  tower: [0, 0, 1, 0, 0, 0],
  masons: [0, 0.05, 0.9, 0.1, 0, 0],
  rain: [0, 0, 0, 1, 0, 0],
  valley: [0, 0, 0.1, 0.9, 0.1, 0],
  market: [0, 0, 0, 0, 1, 0],
  traders: [0, 0, 0.05, 0.1, 0.95, 0],
};

/** The file's text: `fillers` rows `filler0`..., then `topics`; with `header`, fastText's `count dims` line first. */
export function vectorsText(
  topics: Record<string, number[]> = TOPIC_VECTORS,
  { fillers = 100, header = false }: { fillers?: number; header?: boolean } = {},
): string {
  const lines: string[] = [];
  for (let i = 0; i < fillers; i++) {
    const v = Array.from({ length: VECTOR_DIMS }, (_, k) => (k === 5 ? 1 : ((i * 7 + k * 3) % 11) / 100));
    lines.push(`filler${i} ${v.join(' ')}`);
  }
  for (const [word, v] of Object.entries(topics)) lines.push(`${word} ${v.join(' ')}`);
  return `${header ? `${lines.length} ${VECTOR_DIMS}\n` : ''}${lines.join('\n')}\n`;
}
