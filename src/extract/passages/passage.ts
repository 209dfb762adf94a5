/**
 * One passage of a page's Markdown: a run of whole blocks under one heading. Its offsets
 * index the page's full Markdown (UTF-16 code units, as `start_char` paging counts them),
 * so `text === markdown.slice(start_char, end_char)` always holds and an agent can read
 * on from `end_char` with extract_urls' `start_char`.
 */
export interface Passage {
  text: string;
  /** The texts of the enclosing headings, outermost first. */
  heading_path: string[];
  start_char: number;
  end_char: number;
  /** Relevance to the query (0 from splitPassages); comparable within one page only. */
  score: number;
  /**
   * The table's header row or the list's lead-in line when the passage starts inside that
   * table or list past it (docs/decisions.md, "Query-focused passages"). Not part of
   * `text`: the offsets stay the text's own.
   */
  lead_in?: string;
}
