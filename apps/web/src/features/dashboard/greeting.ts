/** Greeting by the hour: before 12 morning, before 17 afternoon, otherwise evening (seed 002, Dashboard). */
export function greetingKey(hour: number): 'morning' | 'afternoon' | 'evening' {
  if (hour < 12) return 'morning';
  if (hour < 17) return 'afternoon';
  return 'evening';
}
