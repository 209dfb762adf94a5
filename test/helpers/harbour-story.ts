/**
 * A news story of our own with a thread of readers' comments under it and its JSON-LD: the
 * page the page-control tests (include_comments, include_structured_data) read on every face.
 */

/** The story's paragraphs. */
export const STORY = [
  'The harbour board voted on Tuesday to rebuild the north pier in stone before the winter storms, after divers found the timber piles had rotted through in three places.',
  'Work will start in September and take about fourteen weeks. The fishing boats will moor at the south quay while it lasts, and the ferry will keep its usual berth.',
  'The board said the cost would be met from its reserves and a grant from the county, so harbour dues will not rise this year.',
];
/** The comments: author, date, text. */
export const COMMENTS = [
  [
    'Morwenna Tallis',
    '2024-06-04T09:12:00Z',
    'About time. The timber has been creaking under the tractors for years and nobody wanted to be the one to say it.',
  ],
  [
    'Fergus Abara',
    '2024-06-04T10:40:00Z',
    'Fourteen weeks sounds hopeful to me. The last repair on the slipway took twice as long as they said it would.',
  ],
  [
    'Isolde Prentice',
    '2024-06-04T12:05:00Z',
    'Will the south quay have room for the visiting yachts as well as the fishing boats over the summer?',
  ],
  [
    'Caspar Lindqvist',
    '2024-06-05T08:30:00Z',
    'Good to hear the dues will not go up. The grant from the county is the part that surprised me most.',
  ],
];

/** What the page says about itself. */
const JSON_LD = {
  '@context': 'https://schema.org',
  '@type': 'NewsArticle',
  headline: 'North pier to be rebuilt in stone',
  datePublished: '2024-06-03T18:00:00Z',
  author: { '@type': 'Person', name: 'Ada Quill' },
  publisher: { '@type': 'Organization', name: 'The Harbour Herald' },
};

/** The page: the story in an <article>, the thread after it. */
export const STORY_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>North pier to be rebuilt in stone</title>
<meta property="og:title" content="North pier to be rebuilt in stone"><meta property="og:type" content="article">
<script type="application/ld+json">${JSON.stringify(JSON_LD)}</script></head>
<body><article><h1>North pier to be rebuilt in stone</h1>${STORY.map((p) => `<p>${p}</p>`).join('')}</article>
<section id="comments"><h2>${COMMENTS.length} comments</h2><ol class="comment-list">${COMMENTS.map(
  ([name, date, text], i) =>
    `<li class="comment"><div class="comment-author vcard"><b class="fn">${name}</b></div><time datetime="${date}">${date}</time><p>${text}</p><a href="?replytocom=${i}#respond">Reply</a></li>`,
).join('')}</ol></section></body></html>`;
