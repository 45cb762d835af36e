import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function AdminReportsPage() {
  return <PlaceholderScreen screen="adminReports" area="admin" />;
}
