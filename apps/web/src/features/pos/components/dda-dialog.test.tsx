import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { DdaPrescriptionDialog } from '@/features/pos/components/dda-dialog';
import { renderScreen, server } from '@/test/render-screen';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CLIENT = 'aaaaaaaa-0000-4000-8000-000000000001';

describe('the DDA prescription dialog', () => {
  it('asks for doctor and hospital with the specification’s sentence, then hands the prescription over', async () => {
    const user = userEvent.setup();
    server.use(http.get('/api/sales/last-prescription', () => HttpResponse.json({ prescription: null, saleId: null, invoiceNumber: null, saleDate: null })));
    const onConfirm = vi.fn();
    renderScreen(<DdaPrescriptionDialog open productName="Morphine 10mg" clientId={CLIENT} onConfirm={onConfirm} onCancel={() => undefined} />, { path: '/pos' });
    const dialog = await screen.findByRole('dialog', { name: 'DDA prescription details' });
    expect(dialog.textContent).toContain('Morphine 10mg');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and add' }));
    expect(await within(dialog).findByText('Doctor name and Hospital/Clinic name are required for DDA products.')).toBeTruthy();
    expect(within(dialog).getByLabelText(/Doctor name/).getAttribute('aria-invalid')).toBe('true');
    expect(onConfirm).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText(/Doctor name/), 'Dr. Achieng Odhiambo');
    await user.type(within(dialog).getByLabelText(/Hospital\/Clinic name/), 'Aga Khan Hospital');
    await user.type(within(dialog).getByLabelText('Prescription number'), 'RX-2231');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and add' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
    expect(onConfirm.mock.calls[0]![0]).toEqual({
      doctorName: 'Dr. Achieng Odhiambo',
      hospitalName: 'Aga Khan Hospital',
      prescriptionNumber: 'RX-2231',
      prescriptionDate: null,
      patientId: null,
      doctorLicense: null,
      notes: null,
    });
  });

  it("is prefilled from the client's last prescription, and not asked when the line has its own", async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/sales/last-prescription', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('clientId') ?? '');
        return HttpResponse.json({
          prescription: { doctorName: 'Dr. Kip', hospitalName: 'Moi Referral', prescriptionNumber: 'RX-1', prescriptionDate: '2026-11-20', patientId: 'P-9', doctorLicense: 'L-77', notes: null },
          saleId: 'bbbbbbbb-0000-4000-8000-000000000001',
          invoiceNumber: 'INV-000012',
          saleDate: '2026-11-20',
        });
      }),
    );
    const view = renderScreen(<DdaPrescriptionDialog open productName="Pethidine" clientId={CLIENT} onConfirm={() => undefined} onCancel={() => undefined} />, { path: '/pos' });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByLabelText(/Doctor name/) as HTMLInputElement).value).toBe('Dr. Kip'));
    expect((within(dialog).getByLabelText(/Hospital\/Clinic name/) as HTMLInputElement).value).toBe('Moi Referral');
    expect((within(dialog).getByLabelText('Doctor licence') as HTMLInputElement).value).toBe('L-77');
    expect(dialog.textContent).toContain('INV-000012');
    expect(asked).toEqual([CLIENT]);
    view.unmount();

    renderScreen(
      <DdaPrescriptionDialog open productName="Pethidine" clientId={CLIENT} initial={{ doctorName: 'Dr. Own', hospitalName: 'Own Clinic' }} onConfirm={() => undefined} onCancel={() => undefined} />,
      { path: '/pos' },
    );
    const second = await screen.findByRole('dialog');
    expect((within(second).getByLabelText(/Doctor name/) as HTMLInputElement).value).toBe('Dr. Own');
    expect(asked).toHaveLength(1);
  });
});
