import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PaymentConfirmationPage() {
  return <PlaceholderScreen screen="paymentConfirmation" />;
}
