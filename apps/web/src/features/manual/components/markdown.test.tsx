import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { tableOfContents } from '@/features/manual/components/contents';
import { Markdown } from '@/features/manual/components/markdown';

const SOURCE = [
  '# Manual',
  '',
  '## Selling at the till',
  '',
  'Open **the till** from [the dashboard](/app/dashboard), read the [guide](https://example.org/guide) or [this](javascript:alert(1)).',
  '',
  '## Reports',
  '',
  '| Report | Shows |',
  '| --- | --- |',
  '| Expiry | Batches near expiry |',
  '',
  '<script>alert(1)</script>',
  '',
  '## Reports',
].join('\n');

function renderManual() {
  return render(
    <MemoryRouter>
      <Markdown source={SOURCE} />
    </MemoryRouter>,
  );
}

describe('the manual', () => {
  it('lists the level-2 headings with the ids the rendered headings carry', () => {
    renderManual();
    const contents = tableOfContents(SOURCE);
    expect(contents).toEqual([
      { id: 'selling-at-the-till', text: 'Selling at the till' },
      { id: 'reports', text: 'Reports' },
      { id: 'reports-1', text: 'Reports' },
    ]);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.id)).toEqual(contents.map((c) => c.id));
  });

  it('renders tables and links safely, and keeps raw HTML out of the page', () => {
    const { container } = renderManual();
    expect(screen.getByRole('columnheader', { name: 'Report' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Batches near expiry' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'the dashboard' }).getAttribute('href')).toBe('/app/dashboard');
    const external = screen.getByRole('link', { name: 'guide' });
    expect(external.getAttribute('target')).toBe('_blank');
    expect(external.getAttribute('rel')).toContain('noopener');
    expect(screen.queryByRole('link', { name: 'this' })).toBeNull();
    expect(container.querySelector('script')).toBeNull();
  });
});
