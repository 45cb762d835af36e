import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';

export interface CameraScanDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** A code was read (the dialog closes). */
  onCode: (code: string) => void;
}

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorClass = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

const FORMATS = ['ean_13', 'ean_8', 'upc_a', 'upc_e', 'code_128', 'code_39', 'itf', 'qr_code', 'data_matrix'];

/**
 * Scan with the phone's camera (issue 9 item 2): the browser's BarcodeDetector where it exists (Chrome on Android),
 * otherwise @zxing/browser, loaded only now (decision 0025). The first code read closes the dialog.
 */
export default function CameraScanDialog({ open, onOpenChange, onCode }: CameraScanDialogProps) {
  const { t } = useTranslation('pos');
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(onCode);
  latest.current = onCode;

  useEffect(() => {
    if (!open) return;
    let stopped = false;
    let stop: () => void = () => undefined;
    const done = (code: string) => {
      if (stopped) return;
      stopped = true;
      stop();
      latest.current(code);
    };
    async function start() {
      const element = video.current;
      if (!element) return;
      const Detector = (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
      try {
        if (Detector) {
          const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
          stop = () => stream.getTracks().forEach((track) => track.stop());
          if (stopped) return stop();
          element.srcObject = stream;
          await element.play();
          const detector = new Detector({ formats: FORMATS });
          const tick = async () => {
            if (stopped) return;
            const found = await detector.detect(element).catch(() => []);
            if (found[0]?.rawValue) done(found[0].rawValue);
            else window.setTimeout(() => void tick(), 150);
          };
          void tick();
        } else {
          const { BrowserMultiFormatReader } = await import('@zxing/browser');
          const reader = new BrowserMultiFormatReader();
          const controls = await reader.decodeFromConstraints({ video: { facingMode: 'environment' } }, element, (result) => {
            if (result) done(result.getText());
          });
          stop = () => controls.stop();
          if (stopped) stop();
        }
      } catch (cause) {
        setError(cause instanceof Error && cause.name === 'NotAllowedError' ? t('camera.denied') : t('camera.unavailable'));
      }
    }
    setError(null);
    void start();
    return () => {
      stopped = true;
      stop();
    };
  }, [open, t]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('camera.title')} description={t('camera.description')} size="sm">
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <video ref={video} className="aspect-[4/3] w-full rounded-md bg-black object-cover" muted playsInline aria-label={t('camera.preview')} />
    </Dialog>
  );
}
