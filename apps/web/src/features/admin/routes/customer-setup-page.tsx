import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function CustomerSetupPage() {
  return <PlaceholderScreen screen="customerSetup" area="admin" />;
}
