import { useTranslation } from 'react-i18next';
import manual from '../../../../../../docs/user-manual.md?raw';
import { Markdown } from '@/features/manual/components/markdown';
import { parseBlocks, slugify } from '@/features/manual/components/markdown-parse';
import { Card } from '@/components/ui/card';

/** The user manual (docs/user-manual.md), rendered with a table of contents. */
export default function ManualPage() {
  const { t } = useTranslation('manual');
  const sections = parseBlocks(manual).filter((block): block is { kind: 'heading'; level: number; text: string } => block.kind === 'heading' && block.level === 2);
  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <nav aria-label={t('contents')} className="lg:sticky lg:top-6 lg:self-start">
        <Card title={t('contents')} headingLevel={2}>
          <ol className="space-y-1 text-sm">
            {sections.map((section) => (
              <li key={section.text}>
                <a href={`#${slugify(section.text)}`} className="text-primary hover:underline">
                  {section.text.replace(/[*_`]/g, '')}
                </a>
              </li>
            ))}
          </ol>
        </Card>
      </nav>
      <article className="min-w-0 rounded-lg border border-slate-200 bg-white p-6">
        <Markdown source={manual} />
      </article>
    </div>
  );
}
