import { PublicPlaceholder } from '@/features/public/components/public-placeholder';

export default function PaymentConfirmationPage() {
  return <PublicPlaceholder screen="paymentConfirmation" />;
}
