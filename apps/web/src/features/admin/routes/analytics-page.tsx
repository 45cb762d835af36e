import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function AnalyticsPage() {
  return <PlaceholderScreen screen="adminAnalytics" area="admin" />;
}
