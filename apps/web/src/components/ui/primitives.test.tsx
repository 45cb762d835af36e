import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Checkbox } from '@/components/ui/checkbox';
import { Switch } from '@/components/ui/switch';
import { Tabs } from '@/components/ui/tabs';

describe('Tabs', () => {
  function Sections() {
    const [tab, setTab] = useState('business');
    return (
      <Tabs
        label="Settings sections"
        value={tab}
        onValueChange={setTab}
        items={[
          { id: 'business', label: 'Business', content: <p>Business details</p> },
          { id: 'pricing', label: 'Pricing', content: <p>Pricing rules</p> },
          { id: 'payment', label: 'Payment', content: <p>Payment methods</p> },
        ]}
      />
    );
  }

  it('shows the selected panel and moves with the arrow keys, Home and End', async () => {
    const user = userEvent.setup();
    render(<Sections />);
    expect(screen.getByRole('tablist', { name: 'Settings sections' })).toBeTruthy();
    expect(screen.getByRole('tabpanel').textContent).toBe('Business details');
    await user.click(screen.getByRole('tab', { name: 'Pricing' }));
    expect(screen.getByRole('tab', { name: 'Pricing' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('Pricing rules');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tabpanel').textContent).toBe('Payment methods');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Payment' }));
    await user.keyboard('{Home}');
    expect(screen.getByRole('tabpanel').textContent).toBe('Business details');
    // Only the active tab is in the tab order.
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
  });
});

describe('Switch and Checkbox', () => {
  function Form() {
    const [pos, setPos] = useState(false);
    const [dda, setDda] = useState(false);
    return (
      <>
        <Switch label="POS access" description="May open the till" checked={pos} onCheckedChange={setPos} />
        <Checkbox label="Controlled medicine (DDA)" checked={dda} onCheckedChange={setDda} />
        <p>{`pos=${pos} dda=${dda}`}</p>
      </>
    );
  }

  it('toggle by click, by their label and with Space, and report their state', async () => {
    const user = userEvent.setup();
    render(<Form />);
    const toggle = screen.getByRole('switch', { name: 'POS access' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('switch', { description: 'May open the till' })).toBe(toggle);

    const checkbox = screen.getByRole('checkbox', { name: 'Controlled medicine (DDA)' });
    await user.click(screen.getByText('Controlled medicine (DDA)'));
    expect(checkbox.getAttribute('aria-checked')).toBe('true');
    checkbox.focus();
    await user.keyboard(' ');
    expect(checkbox.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText('pos=true dda=false')).toBeTruthy();
  });
});
