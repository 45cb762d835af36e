import { describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RefillReminderDialog } from '@/features/pos/components/refill-dialog';
import { renderScreen } from '@/test/render-screen';

describe('the refill reminder dialog', () => {
  it('takes 1 to 365 days (30 by default) and shows the due date from the sale date', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    renderScreen(
      <RefillReminderDialog open productName="Metformin 500mg" clientId="aaaaaaaa-0000-4000-8000-000000000001" saleDate="2026-11-24" onConfirm={onConfirm} onCancel={() => undefined} />,
      { path: '/pos' },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Set Refill Reminder' });
    const days = within(dialog).getByLabelText('Days until refill') as HTMLInputElement;
    expect(days.value).toBe('30');
    expect(dialog.textContent).toContain('Refill due on 24 Dec 2026');
    for (const wrong of ['0', '366', '2.5']) {
      await user.clear(days);
      await user.type(days, wrong);
      await user.click(within(dialog).getByRole('button', { name: 'Set Reminder' }));
      expect(await within(dialog).findByText('Please enter a valid number of days (1-365).')).toBeTruthy();
    }
    expect(onConfirm).not.toHaveBeenCalled();
    await user.clear(days);
    await user.type(days, '14');
    expect(dialog.textContent).toContain('Refill due on 08 Dec 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Set Reminder' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith(14));
  });

  it('needs a real client, and offers Remove for a line that has a reminder', async () => {
    const user = userEvent.setup();
    const onRemove = vi.fn();
    const view = renderScreen(<RefillReminderDialog open productName="Metformin" clientId={null} onConfirm={() => undefined} onCancel={() => undefined} />, { path: '/pos' });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert').textContent).toBe('Please select a client for refill reminders');
    expect((within(dialog).getByRole('button', { name: 'Set Reminder' }) as HTMLButtonElement).disabled).toBe(true);
    view.unmount();
    renderScreen(<RefillReminderDialog open productName="Metformin" clientId="aaaaaaaa-0000-4000-8000-000000000001" initialDays={60} onConfirm={() => undefined} onRemove={onRemove} onCancel={() => undefined} />, {
      path: '/pos',
    });
    const again = await screen.findByRole('dialog');
    expect((within(again).getByLabelText('Days until refill') as HTMLInputElement).value).toBe('60');
    await user.click(within(again).getByRole('button', { name: 'Remove Reminder' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
    cleanup();
    // A line without a reminder starts at its days but offers no Remove.
    renderScreen(
      <RefillReminderDialog open productName="Metformin" clientId="aaaaaaaa-0000-4000-8000-000000000001" initialDays={30} hasReminder={false} onConfirm={() => undefined} onRemove={onRemove} onCancel={() => undefined} />,
      { path: '/pos' },
    );
    const fresh = await screen.findByRole('dialog');
    expect((within(fresh).getByLabelText('Days until refill') as HTMLInputElement).value).toBe('30');
    expect(within(fresh).queryByRole('button', { name: 'Remove Reminder' })).toBeNull();
  });
});
