import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function DemoAccessPage() {
  return <PlaceholderScreen screen="demoAccess" />;
}
