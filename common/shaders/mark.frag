layout(location = 0) out uint o_value;
void main() { o_value = 0u; }
