import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeSlug from 'rehype-slug';
import { cn } from '@/lib/cn';

/**
 * Our own Markdown documents as React elements (react-markdown with GitHub tables; headings get GitHub-style ids
 * for the table of contents). Raw HTML in the source stays text: react-markdown never injects it.
 */

const SAFE_EXTERNAL = /^(https?:|mailto:)/i;

const HEADING_CLASSES = {
  h1: 'mt-2 text-3xl font-bold text-slate-900',
  h2: 'mt-8 border-b border-slate-200 pb-1 text-2xl font-bold text-slate-900',
  h3: 'mt-6 text-xl font-semibold text-slate-900',
  h4: 'mt-4 text-lg font-semibold text-slate-900',
  h5: 'mt-4 font-semibold text-slate-900',
  h6: 'mt-4 font-semibold text-slate-700',
} as const;

function heading(Tag: keyof typeof HEADING_CLASSES) {
  return function Heading({ node: _node, className, ...rest }: ComponentProps<typeof Tag> & { node?: unknown }) {
    return <Tag className={cn(HEADING_CLASSES[Tag], className)} {...rest} />;
  };
}

/** In-app paths route without a reload; other links are anchors, external ones open a new tab; anything else is text. */
function MarkdownLink({ href = '', children }: ComponentProps<'a'> & { node?: unknown }) {
  if (href.startsWith('/')) {
    return (
      <Link to={href} className="text-primary underline">
        {children}
      </Link>
    );
  }
  if (href.startsWith('#')) return <a href={href} className="text-primary underline">{children}</a>;
  if (SAFE_EXTERNAL.test(href)) {
    return (
      <a href={href} className="text-primary underline" target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  }
  return <span>{children}</span>;
}

const COMPONENTS: Components = {
  h1: heading('h1'),
  h2: heading('h2'),
  h3: heading('h3'),
  h4: heading('h4'),
  h5: heading('h5'),
  h6: heading('h6'),
  a: MarkdownLink,
  ul: ({ node: _node, ...rest }) => <ul className="list-disc space-y-1 pl-6" {...rest} />,
  ol: ({ node: _node, ...rest }) => <ol className="list-decimal space-y-1 pl-6" {...rest} />,
  code: ({ node: _node, className, ...rest }) => <code className={cn('rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] [pre_&]:bg-transparent [pre_&]:p-0', className)} {...rest} />,
  pre: ({ node: _node, ...rest }) => <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-sm text-slate-100" {...rest} />,
  blockquote: ({ node: _node, ...rest }) => <blockquote className="border-l-4 border-primary/40 bg-primary/5 px-4 py-2 italic" {...rest} />,
  table: ({ node: _node, ...rest }) => (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm" {...rest} />
    </div>
  ),
  thead: ({ node: _node, ...rest }) => <thead className="bg-slate-50" {...rest} />,
  th: ({ node: _node, ...rest }) => <th scope="col" className="border border-slate-200 px-3 py-2 font-semibold" {...rest} />,
  td: ({ node: _node, ...rest }) => <td className="border border-slate-200 px-3 py-2" {...rest} />,
  hr: () => <hr className="my-6 border-slate-200" />,
};

export function Markdown({ source }: { source: string }) {
  return (
    <div className="space-y-3 leading-relaxed text-slate-700">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug]} components={COMPONENTS}>
        {source}
      </ReactMarkdown>
    </div>
  );
}
