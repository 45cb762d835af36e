import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/button';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Text of the confirm button (default "Confirm"). */
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  onConfirm: () => void | Promise<void>;
  /** Red confirm button for destructive actions. */
  destructive?: boolean;
  /** Shows the confirm button busy and keeps the dialog open. */
  loading?: boolean;
  children?: ReactNode;
}

export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, cancelLabel, onConfirm, destructive, loading, children }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (loading ? undefined : onOpenChange(next))}
      title={title}
      description={description}
      size="sm"
      hideClose={loading}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={loading}>
            {cancelLabel ?? t('actions.cancel')}
          </Button>
          <Button variant={destructive ? 'danger' : 'primary'} loading={loading} onClick={() => void onConfirm()}>
            {confirmLabel ?? t('actions.confirm')}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
