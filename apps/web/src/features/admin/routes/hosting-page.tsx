import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function HostingPage() {
  return <PlaceholderScreen screen="hosting" area="admin" />;
}
