import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function RefillAlertsPage() {
  return <PlaceholderScreen screen="refillAlerts" />;
}
