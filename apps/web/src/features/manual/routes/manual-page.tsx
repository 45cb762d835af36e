import { useTranslation } from 'react-i18next';
import manual from '../../../../../../docs/user-manual.md?raw';
import { tableOfContents } from '@/features/manual/components/contents';
import { Markdown } from '@/features/manual/components/markdown';
import { Card } from '@/components/ui/card';

const SECTIONS = tableOfContents(manual);

/** The user manual (docs/user-manual.md), rendered with a table of contents. */
export default function ManualPage() {
  const { t } = useTranslation('manual');
  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <nav aria-label={t('contents')} className="lg:sticky lg:top-6 lg:self-start">
        <Card title={t('contents')} headingLevel={2}>
          <ol className="space-y-1 text-sm">
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-primary hover:underline">
                  {section.text}
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
