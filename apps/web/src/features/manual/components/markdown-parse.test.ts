import { describe, expect, it } from 'vitest';
import { parseBlocks, slugify } from './markdown-parse.ts';

describe('parseBlocks', () => {
  it('reads headings, paragraphs, lists, code and tables', () => {
    const blocks = parseBlocks(
      ['# Title', '', 'First line', 'continues here.', '', '- one', '- two', '', '1. first', '', '```', 'a < b', '```', '', '| A | B |', '| --- | --- |', '| 1 | 2 |'].join('\n'),
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'paragraph', text: 'First line continues here.' },
      { kind: 'list', ordered: false, items: ['one', 'two'] },
      { kind: 'list', ordered: true, items: ['first'] },
      { kind: 'code', text: 'a < b' },
      { kind: 'table', header: ['A', 'B'], rows: [['1', '2']] },
    ]);
  });

  it('keeps HTML as text (the renderer never injects it)', () => {
    expect(parseBlocks('<script>alert(1)</script>')).toEqual([{ kind: 'paragraph', text: '<script>alert(1)</script>' }]);
  });
});

describe('slugify', () => {
  it('makes anchor ids from headings', () => {
    expect(slugify('Stock transfers and adjustments')).toBe('stock-transfers-and-adjustments');
    expect(slugify('**Selling** at the till!')).toBe('selling-at-the-till');
  });
});
