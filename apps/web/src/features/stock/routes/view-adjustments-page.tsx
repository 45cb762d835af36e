import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function ViewAdjustmentsPage() {
  return <PlaceholderScreen screen="viewAdjustments" />;
}
