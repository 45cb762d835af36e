import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ExpiryReportPage() {
  return <PlaceholderScreen screen="expiryReport" />;
}
