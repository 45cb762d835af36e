import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import { Field } from '@/components/ui/field';

const PRODUCTS: ComboboxOption[] = [
  { value: 'p1', label: 'Paracetamol 500mg', keywords: ['6160000000017'] },
  { value: 'p2', label: 'Amoxicillin 250mg' },
  { value: 'p3', label: 'Cetirizine 10mg', disabled: true },
];

function Picker({ onSearchChange, options = PRODUCTS }: { onSearchChange?: (text: string) => void; options?: ComboboxOption[] }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <Field label="Product">
      <Combobox
        value={value}
        onValueChange={setValue}
        options={options}
        placeholder="Choose a product"
        searchLabel="Search products"
        emptyText="No product matches"
        onSearchChange={onSearchChange}
      />
    </Field>
  );
}

describe('Combobox', () => {
  it('is a combobox named by its field label, collapsed until opened', () => {
    render(<Picker />);
    const trigger = screen.getByRole('combobox', { name: 'Product' });
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(trigger.textContent).toContain('Choose a product');
  });

  it('filters as you type (by name or keyword) and chooses with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    const search = screen.getByRole('combobox', { name: 'Search products' });
    expect(document.activeElement).toBe(search);
    expect(screen.getAllByRole('option')).toHaveLength(3);

    await user.type(search, 'amox');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Amoxicillin 250mg']);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Product' }).textContent).toContain('Amoxicillin 250mg');

    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    await user.type(screen.getByRole('combobox', { name: 'Search products' }), '6160000000017');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Paracetamol 500mg']);
  });

  it('says when nothing matches, skips disabled options and closes on Escape', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    await user.type(screen.getByRole('combobox', { name: 'Search products' }), 'zzz');
    expect(screen.getByText('No product matches')).toBeTruthy();
    await user.clear(screen.getByRole('combobox', { name: 'Search products' }));
    await user.click(screen.getByRole('option', { name: 'Cetirizine 10mg' }));
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Product' }).textContent).toContain('Choose a product');
  });

  it('leaves filtering to the server when it searches there', async () => {
    const user = userEvent.setup();
    const onSearchChange = vi.fn();
    render(<Picker onSearchChange={onSearchChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Product' }));
    await user.type(screen.getByRole('combobox', { name: 'Search products' }), 'xy');
    expect(onSearchChange).toHaveBeenLastCalledWith('xy');
    // The browser does not hide the server's results.
    expect(screen.getAllByRole('option')).toHaveLength(3);
  });
});
