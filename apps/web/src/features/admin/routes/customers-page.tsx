import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function CustomersPage() {
  return <PlaceholderScreen screen="customers" area="admin" />;
}
