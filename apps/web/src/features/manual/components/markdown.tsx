import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { parseBlocks, slugify } from '@/features/manual/components/markdown-parse';

/**
 * A small, safe Markdown renderer for our own documents: headings, paragraphs, lists, bold, italics, code,
 * links, block quotes and tables become React elements; nothing is ever injected as HTML.
 */

const SAFE_EXTERNAL = /^(https?:|mailto:)/i;
const INLINE = /(\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*([^*]+)\*|_([^_]+)_)/;

/** Inline Markdown to React nodes. */
export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const nodes: ReactNode[] = [];
  let rest = text;
  let counter = 0;
  while (rest) {
    const match = INLINE.exec(rest);
    if (!match) {
      nodes.push(rest);
      break;
    }
    if (match.index > 0) nodes.push(rest.slice(0, match.index));
    const key = `${keyPrefix}-${counter++}`;
    if (match[2] !== undefined) nodes.push(<strong key={key}>{renderInline(match[2], key)}</strong>);
    else if (match[3] !== undefined)
      nodes.push(
        <code key={key} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]">
          {match[3]}
        </code>,
      );
    else if (match[4] !== undefined && match[5] !== undefined) {
      const href = match[5];
      const label = renderInline(match[4], key);
      if (href.startsWith('/')) nodes.push(<Link key={key} to={href} className="text-primary underline">{label}</Link>);
      else if (href.startsWith('#') || SAFE_EXTERNAL.test(href))
        nodes.push(
          <a key={key} href={href} className="text-primary underline" {...(SAFE_EXTERNAL.test(href) ? { target: '_blank', rel: 'noreferrer noopener' } : {})}>
            {label}
          </a>,
        );
      else nodes.push(<span key={key}>{label}</span>);
    } else if (match[6] !== undefined) nodes.push(<em key={key}>{renderInline(match[6], key)}</em>);
    else if (match[7] !== undefined) nodes.push(<em key={key}>{renderInline(match[7], key)}</em>);
    rest = rest.slice(match.index + match[0].length);
  }
  return nodes;
}

const HEADING_CLASSES: Record<number, string> = {
  1: 'mt-2 text-3xl font-bold text-slate-900',
  2: 'mt-8 border-b border-slate-200 pb-1 text-2xl font-bold text-slate-900',
  3: 'mt-6 text-xl font-semibold text-slate-900',
  4: 'mt-4 text-lg font-semibold text-slate-900',
  5: 'mt-4 font-semibold text-slate-900',
  6: 'mt-4 font-semibold text-slate-700',
};

export function Markdown({ source }: { source: string }) {
  const blocks = parseBlocks(source);
  return (
    <div className="space-y-3 text-slate-700 leading-relaxed">
      {blocks.map((block, index) => {
        const key = `b${index}`;
        switch (block.kind) {
          case 'heading': {
            const Tag = `h${block.level}` as 'h1';
            return (
              <Tag key={key} id={slugify(block.text)} className={HEADING_CLASSES[block.level]}>
                {renderInline(block.text, key)}
              </Tag>
            );
          }
          case 'paragraph':
            return <p key={key}>{renderInline(block.text, key)}</p>;
          case 'list': {
            const Tag = block.ordered ? 'ol' : 'ul';
            return (
              <Tag key={key} className={block.ordered ? 'list-decimal space-y-1 pl-6' : 'list-disc space-y-1 pl-6'}>
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{renderInline(item, `${key}-${itemIndex}`)}</li>
                ))}
              </Tag>
            );
          }
          case 'code':
            return (
              <pre key={key} className="overflow-x-auto rounded-md bg-slate-900 p-3 text-sm text-slate-100">
                <code>{block.text}</code>
              </pre>
            );
          case 'quote':
            return (
              <blockquote key={key} className="border-l-4 border-primary/40 bg-primary/5 px-4 py-2 italic">
                {renderInline(block.text, key)}
              </blockquote>
            );
          case 'table':
            return (
              <div key={key} className="overflow-x-auto">
                <table className="w-full border-collapse text-left text-sm">
                  <thead className="bg-slate-50">
                    <tr>
                      {block.header.map((cell, cellIndex) => (
                        <th key={cellIndex} scope="col" className="border border-slate-200 px-3 py-2 font-semibold">
                          {renderInline(cell, `${key}-h${cellIndex}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {block.rows.map((row, rowIndex) => (
                      <tr key={rowIndex}>
                        {row.map((cell, cellIndex) => (
                          <td key={cellIndex} className="border border-slate-200 px-3 py-2">
                            {renderInline(cell, `${key}-${rowIndex}-${cellIndex}`)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          case 'rule':
            return <hr key={key} className="my-6 border-slate-200" />;
          default:
            return null;
        }
      })}
    </div>
  );
}
