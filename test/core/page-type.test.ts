/** `page_type`, as the API declares it (core/schemas.ts, from core/page-types.ts). */
import { describe, expect, it } from 'vitest';
import { extractResultSchema, pageTypeSchema } from '../../src/core/schemas.js';
import { PAGE_TYPES } from '../../src/core/page-types.js';

describe('page_type', () => {
  it('declares exactly the page types, in their order', () => {
    expect(pageTypeSchema.options).toEqual([...PAGE_TYPES]);
  });

  it('is an optional field of a crawl result', () => {
    const result = { url: 'https://x.example/', success: true, markdown: 'x', status_code: 200 };
    expect(extractResultSchema.parse(result)).not.toHaveProperty('page_type');
    expect(extractResultSchema.parse({ ...result, page_type: 'forum' }).page_type).toBe('forum');
    expect(extractResultSchema.safeParse({ ...result, page_type: 'blog' }).success).toBe(false);
  });
});
