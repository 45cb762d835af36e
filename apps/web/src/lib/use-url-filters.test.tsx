import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { intParam, pageParam, useUrlFilters } from '@/lib/use-url-filters';

type Update = ReturnType<typeof useUrlFilters>['update'];

/** Shows the address's query and hands out `update` as each render made it. */
function Probe({ onRender }: { onRender: (update: Update) => void }) {
  const { update } = useUrlFilters();
  const location = useLocation();
  onRender(update);
  return <output aria-label="query">{location.search}</output>;
}

function mount(initial: string) {
  const updates: Update[] = [];
  render(
    <MemoryRouter initialEntries={[`/app/products${initial}`]}>
      <Probe onRender={(u) => updates.push(u)} />
    </MemoryRouter>,
  );
  return updates;
}

describe('useUrlFilters', () => {
  it('keeps both of two changes made before the router renders the first', () => {
    const updates = mount('?status=low');
    act(() => {
      updates.at(-1)!({ status: null });
      updates.at(-1)!({ category: 'Equipment' });
    });
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?category=Equipment');
  });

  it('starts from the latest parameters when called through a setter an older render kept (a memoised header)', () => {
    const updates = mount('?page=3');
    const first = updates[0]!;
    act(() => updates.at(-1)!({ category: 'Equipment' }));
    act(() => first({ sort: 'quantity', order: 'desc' }));
    expect(new URLSearchParams(screen.getByRole('status', { name: 'query' }).textContent!).toString()).toBe('category=Equipment&sort=quantity&order=desc');
    // The page is dropped by a change of filter, kept when it is the change.
    act(() => first({ page: '2' }));
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?category=Equipment&sort=quantity&order=desc&page=2');
  });
});

describe('intParam and pageParam', () => {
  it('read a whole number within its range and nothing else', () => {
    expect(intParam('30', 0, 365)).toBe(30);
    expect(intParam('0', 0, 365)).toBe(0);
    for (const bad of [null, '', '-1', '1.5', '1e3', ' 7', '366', 'abc']) expect(intParam(bad, 0, 365)).toBeUndefined();
  });

  it('give page 1 for an address without a page or with one that is not a page', () => {
    expect(pageParam(new URLSearchParams('page=4'))).toBe(4);
    for (const query of ['', 'page=0', 'page=-2', 'page=two', 'page=2.5', 'page=99999999']) expect(pageParam(new URLSearchParams(query))).toBe(1);
  });
});
