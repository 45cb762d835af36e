import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function SuppliersReportPage() {
  return <PlaceholderScreen screen="suppliersReport" />;
}
