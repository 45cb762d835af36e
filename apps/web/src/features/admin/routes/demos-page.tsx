import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function DemosPage() {
  return <PlaceholderScreen screen="adminDemos" area="admin" />;
}
