import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function PaymentSummaryPage() {
  return <PlaceholderScreen screen="paymentSummary" />;
}
