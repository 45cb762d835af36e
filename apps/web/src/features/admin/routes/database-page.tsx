import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function DatabasePage() {
  return <PlaceholderScreen screen="database" area="admin" />;
}
