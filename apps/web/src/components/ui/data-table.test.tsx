import { useState } from 'react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SortingState } from '@tanstack/react-table';
import { DataTable, dataTableColumns, VIRTUALIZE_FROM, type DataTableProps } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';

interface Medicine {
  id: string;
  name: string;
  quantity: number;
}

const column = dataTableColumns<Medicine>();
const columns = [
  column.accessor('name', { header: 'Name', enableSorting: true, meta: { rowHeader: true } }),
  column.accessor('quantity', { header: 'Quantity', enableSorting: true, meta: { numeric: true } }),
];

const MEDICINES: Medicine[] = [
  { id: 'b', name: 'Paracetamol', quantity: 40 },
  { id: 'a', name: 'Amoxicillin', quantity: 5 },
  { id: 'c', name: 'Cetirizine', quantity: 120 },
];

function renderTable(props: Partial<DataTableProps<Medicine>> = {}) {
  return render(
    <DataTable<Medicine>
      caption="Medicines in stock"
      columns={columns}
      data={MEDICINES}
      getRowId={(m) => m.id}
      empty={<EmptyState title="No medicines yet" />}
      {...props}
    />,
  );
}

/** The names in the body rows, top to bottom. */
function shownNames(): string[] {
  return screen.getAllByRole('rowheader').map((cell) => cell.textContent ?? '');
}

describe('DataTable', () => {
  it('is a table named by its caption, with column headers and a row header per row', () => {
    renderTable({ rowProps: (m) => ({ 'data-medicine-id': m.id }) });
    const table = screen.getByRole('table', { name: 'Medicines in stock' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['NameSort by Name', 'QuantitySort by Quantity']);
    expect(shownNames()).toEqual(['Paracetamol', 'Amoxicillin', 'Cetirizine']);
    const row = screen.getByRole('row', { name: /Amoxicillin/ });
    expect(row.getAttribute('data-medicine-id')).toBe('a');
    expect(within(row).getByRole('cell').className).toContain('text-right');
  });

  it('shows the loading state before the first rows arrive', () => {
    renderTable({ data: undefined, isLoading: true, loadingMessage: 'Loading medicines...' });
    expect(screen.getByRole('status').textContent).toContain('Loading medicines...');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the error with a Try Again button that retries', async () => {
    const onRetry = vi.fn();
    renderTable({ error: 'Could not load the medicines. Network error.', onRetry });
    expect(screen.getByRole('alert').textContent).toContain('Could not load the medicines. Network error.');
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows the empty state instead of an empty table', () => {
    renderTable({ data: [] });
    expect(screen.getByText('No medicines yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('sorts the loaded rows from the column header: A to Z, Z to A, then back to the original order', async () => {
    const user = userEvent.setup();
    renderTable();
    const header = () => screen.getByRole('columnheader', { name: /Name/ });
    expect(header().getAttribute('aria-sort')).toBe('none');
    await user.click(screen.getByRole('button', { name: /Sort by Name/ }));
    expect(shownNames()).toEqual(['Amoxicillin', 'Cetirizine', 'Paracetamol']);
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: /Sort by Name/ }));
    expect(shownNames()).toEqual(['Paracetamol', 'Cetirizine', 'Amoxicillin']);
    expect(header().getAttribute('aria-sort')).toBe('descending');
    await user.click(screen.getByRole('button', { name: /Sort by Name/ }));
    expect(shownNames()).toEqual(['Paracetamol', 'Amoxicillin', 'Cetirizine']);
  });

  it('sorts numbers low to high first', async () => {
    renderTable();
    await userEvent.click(screen.getByRole('button', { name: /Sort by Quantity/ }));
    expect(shownNames()).toEqual(['Amoxicillin', 'Paracetamol', 'Cetirizine']);
  });

  it('leaves server sorting to the server: it reports the next sort and keeps the rows as given', async () => {
    const user = userEvent.setup();
    const asked: SortingState[] = [];
    function ServerSorted() {
      const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
      return (
        <DataTable<Medicine>
          caption="Medicines in stock"
          columns={columns}
          data={MEDICINES}
          getRowId={(m) => m.id}
          empty={null}
          sorting={sorting}
          onSortingChange={(next) => {
            asked.push(next);
            setSorting(next);
          }}
        />
      );
    }
    render(<ServerSorted />);
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: /Sort by Quantity/ }));
    await user.click(screen.getByRole('button', { name: /Sort by Quantity/ }));
    // A server sort never goes back to "unsorted": the third click is ascending again.
    await user.click(screen.getByRole('button', { name: /Sort by Quantity/ }));
    expect(asked).toEqual([[{ id: 'quantity', desc: false }], [{ id: 'quantity', desc: true }], [{ id: 'quantity', desc: false }]]);
    expect(shownNames()).toEqual(['Paracetamol', 'Amoxicillin', 'Cetirizine']);
  });

  it('pages on the server: shows the range of the whole list and asks for the next page', async () => {
    const onPageChange = vi.fn();
    renderTable({ pagination: { page: 1, pageSize: 3, total: 7, onPageChange } });
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(nav.textContent).toContain('Showing 1–3 of 7');
    expect(nav.textContent).toContain('Page 1 of 3');
    await userEvent.click(within(nav).getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
    expect(shownNames()).toHaveLength(3);
  });

  it('stays on the page the server sent when its rows arrive', async () => {
    const asked: number[] = [];
    function ServerPaged() {
      const [page, setPage] = useState(1);
      // Each page has rows of its own, as a server would send them.
      const rows = MEDICINES.map((m) => ({ ...m, id: `${page}-${m.id}`, name: `${m.name} (page ${page})` }));
      return (
        <DataTable<Medicine>
          caption="Medicines in stock"
          columns={columns}
          data={rows}
          getRowId={(m) => m.id}
          empty={null}
          pagination={{
            page,
            pageSize: 3,
            total: 9,
            onPageChange: (next) => {
              asked.push(next);
              setPage(next);
            },
          }}
        />
      );
    }
    render(<ServerPaged />);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('Page 2 of 3');
    expect(shownNames()[0]).toBe('Paracetamol (page 2)');
    expect(asked).toEqual([2]);
  });

  it('pages loaded rows in the browser when given only a page size', async () => {
    renderTable({ pagination: { pageSize: 2 } });
    expect(shownNames()).toEqual(['Paracetamol', 'Amoxicillin']);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(shownNames()).toEqual(['Cetirizine']);
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('Page 2 of 2');
  });

  it('renders only a window of a long unpaged list and tells assistive technology the full row count', () => {
    // jsdom lays nothing out: a 600 px high scrolling wrapper and 40 px high rows.
    const viewport = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    const rowBox = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40);
    onTestFinished(() => {
      viewport.mockRestore();
      rowBox.mockRestore();
    });
    const many = Array.from({ length: 1000 }, (_, i) => ({ id: String(i), name: `Medicine ${String(i).padStart(4, '0')}`, quantity: i }));
    renderTable({ data: many });
    const table = screen.getByRole('table', { name: 'Medicines in stock' });
    expect(table.getAttribute('aria-rowcount')).toBe('1001');
    const names = shownNames();
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(VIRTUALIZE_FROM);
    expect(names[0]).toBe('Medicine 0000');
    expect(screen.getAllByRole('row')[1]!.getAttribute('aria-rowindex')).toBe('2');
  });

  it('renders every row of a short unpaged list', () => {
    const few = Array.from({ length: VIRTUALIZE_FROM }, (_, i) => ({ id: String(i), name: `Medicine ${i}`, quantity: i }));
    renderTable({ data: few });
    expect(shownNames()).toHaveLength(VIRTUALIZE_FROM);
    expect(screen.getByRole('table').getAttribute('aria-rowcount')).toBeNull();
  });
});
