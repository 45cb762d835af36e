import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function AdminRecoveryPage() {
  return <PlaceholderScreen screen="adminRecovery" />;
}
