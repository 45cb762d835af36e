import { PlaceholderScreen } from '@/app/placeholder-screen';

export default function InventoryReportPage() {
  return <PlaceholderScreen screen="inventoryReport" />;
}
