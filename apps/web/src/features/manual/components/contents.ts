import GithubSlugger from 'github-slugger';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';

/**
 * The level-2 headings of a Markdown document with the ids rehype-slug gives them (the same GitHub slugger, fed
 * every heading in order so repeated titles get the same -1, -2 suffixes).
 */
export function tableOfContents(source: string): { id: string; text: string }[] {
  const slugger = new GithubSlugger();
  const entries: { id: string; text: string }[] = [];
  for (const node of fromMarkdown(source).children) {
    if (node.type !== 'heading') continue;
    const text = toString(node);
    const id = slugger.slug(text);
    if (node.depth === 2) entries.push({ id, text });
  }
  return entries;
}
